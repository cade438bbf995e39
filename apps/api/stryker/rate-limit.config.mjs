import { apiArea } from './area.mjs';

// Per-key request limits and per-address failed-authentication limits, in process and shared through Redis.
export default apiArea('rate-limit', {
  mutate: ['src/app/rate-limit/**/*.ts'],
  specs: ['src/app/rate-limit/**/*.spec.ts', 'test/rate-limit.spec.ts', 'test/redis-partition.spec.ts', 'test/auth.spec.ts'],
});
