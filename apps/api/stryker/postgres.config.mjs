import { apiArea } from './area.mjs';

// PostgreSQL's own code, judged against the server: the dialect (pool, session bounds, migrations under the lock,
// durability), the heartbeat, the statements of the pets store (batched creates, pages, reads by id), of the webhook
// outbox and of the event log (its sequencer). What DatabaseConnection makes of the server's answers is the
// `database` area's.
export default apiArea('postgres', {
  database: 'postgres',
  mutate: ['src/app/database/postgres/*.ts', 'src/app/pets/sql/postgres-*.ts', 'src/app/webhooks/outbox/postgres-webhook-outbox.ts', 'src/app/events/log/postgres-*.ts'],
  specs: [
    'src/app/database/postgres/*.spec.ts',
    'src/app/pets/sql/postgres-*.spec.ts',
    'test/postgres/postgres-create-sql.spec.ts',
    'test/postgres/postgres-migrate.spec.ts',
    'test/postgres/postgres-pet-store.spec.ts',
    'test/postgres/postgres-webhook-outbox.spec.ts',
    'test/postgres/postgres-pet-event-log.spec.ts',
    'test/pet-event-log.spec.ts',
  ],
});
