import { apiArea } from './area.mjs';

// Keys, bearer authentication and scopes.
export default apiArea('auth', {
  mutate: ['src/app/auth/**/*.ts'],
  specs: [
    'src/app/auth/**/*.spec.ts',
    'test/auth.spec.ts',
    'test/api-keys.spec.ts',
    'test/scopes.spec.ts',
    'test/key-scopes-migration.spec.ts',
    // The holder a key names scopes idempotency keys: another caller's same key is its own.
    'test/idempotency.spec.ts',
  ],
});
