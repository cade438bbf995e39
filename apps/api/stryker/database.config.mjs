import { apiArea } from './area.mjs';

// The database connection on the embedded SQLite default: serving or not, failures in the client's words, the watch
// that marks it unreachable and back, the dialect chosen from DATABASE_URL, SQLite's readers, its write queue and its
// immediate transactions, and a migration's progress as readiness reports it. PostgreSQL's own code is the `postgres` area's (its specs need the
// server); the migrations' SQL is judged by the migration specs, not here.
export default apiArea('database', {
  mutate: [
    'src/app/database/*.ts',
    '!src/app/database/*.module.ts',
    'src/app/database/sqlite/*.ts',
    'src/app/database/migrations/migration-progress.ts',
  ],
  specs: [
    'src/app/database/*.spec.ts',
    'src/app/database/sqlite/*.spec.ts',
    'src/app/database/migrations/migration-progress.spec.ts',
    'test/health.spec.ts',
    'test/persistence.spec.ts',
    'test/sqlite-faults.spec.ts',
    'test/sqlite-shared-file.spec.ts',
  ],
});
