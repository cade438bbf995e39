import { apiArea } from './area.mjs';

// The pets operations and their store on the embedded SQLite default: the service (pages, cursors, idempotent creates,
// the 404), the `next` link, the id pipe, the deprecation headers, the store's shared and batched reads, its group
// commit and create transaction, the page statements and the rows. PostgreSQL's statements are the `postgres` area's;
// the OpenAPI decorators are judged whole by the committed document (test/openapi-committed.spec.ts).
export default apiArea('pets', {
  mutate: [
    'src/app/pets/pets.service.ts',
    'src/app/pets/pets.controller.ts',
    'src/app/pets/pet-cursor.ts',
    'src/app/pets/next-page-link.ts',
    'src/app/pets/pet-id.pipe.ts',
    'src/app/pets/get-pet-headers.ts',
    'src/app/pets/pet-errors.ts',
    'src/app/pets/name-key-backfill.ts',
    'src/app/pets/pet.store.ts',
    'src/app/pets/sql/*.ts',
    '!src/app/pets/sql/postgres-*.ts',
    'src/app/database/batching/*.ts',
  ],
  specs: [
    'src/app/pets/pets.service.spec.ts',
    'src/app/pets/pet-cursor.spec.ts',
    'src/app/pets/next-page-link.spec.ts',
    'src/app/pets/pet-id.pipe.spec.ts',
    'src/app/pets/name-key-backfill.spec.ts',
    'src/app/pets/pet.store.spec.ts',
    'src/app/pets/pet-store-interleavings.spec.ts',
    'src/app/pets/sql/*.spec.ts',
    'src/app/database/batching/*.spec.ts',
    'test/create-pet.spec.ts',
    'test/idempotency.spec.ts',
    'test/get-pet.spec.ts',
    'test/list-pets.spec.ts',
    'test/list-pets-filters.spec.ts',
    'test/concurrent-reads.spec.ts',
    'test/concurrent-writes.spec.ts',
  ],
});
