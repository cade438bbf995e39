import { apiArea } from './area.mjs';

// The event log on SQLite and its purge; PostgreSQL's log, with its sequencer, is the `postgres` area's.
export default apiArea('events', {
  mutate: ['src/app/events/**/*.ts', '!src/app/events/**/postgres-*.ts'],
  specs: ['src/app/events/**/*.spec.ts', 'test/pet-event-log.spec.ts'],
});
