import { apiArea } from './area.mjs';

// Idempotency keys of createPet: the header, the body's fingerprint, the batch's decisions, the rows and the purge.
export default apiArea('idempotency', {
  mutate: ['src/app/pets/idempotency/**/*.ts', 'src/app/pets/idempotency-key-purge.ts'],
  specs: [
    'src/app/pets/idempotency/**/*.spec.ts',
    'src/app/pets/idempotency-key-purge.spec.ts',
    'src/app/pets/pet.store.spec.ts',
    'src/app/pets/sql/sqlite-pet-sql.spec.ts',
    'test/idempotency.spec.ts',
    'test/concurrent-writes.spec.ts',
  ],
});
