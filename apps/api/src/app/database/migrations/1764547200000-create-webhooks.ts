import { type MigrationInterface, type QueryRunner, Table, type TableColumnOptions, TableIndex } from 'typeorm';
import { perDatabase } from '../per-database';

/**
 * Webhooks: the endpoints the operator registers, the outbox of messages to deliver, and the log of attempts.
 *
 * The outbox is filled by a trigger on `pets`, in the statement that inserts the pets and so in their transaction
 * (the group commit's, on either database): a committed pet has its messages, a rolled-back one has none, and no
 * code path that inserts pets can forget them. A message is written per endpoint that was registered when its pet
 * was inserted; without endpoints the trigger inserts nothing. No foreign keys: removing an endpoint deletes its
 * messages and attempts in one transaction (WebhookEndpointStore.remove), and pets are never deleted.
 */
export class CreateWebhooks1764547200000 implements MigrationInterface {
  name = 'CreateWebhooks1764547200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const id: TableColumnOptions = {
      name: 'id',
      ...perDatabase(queryRunner, {
        sqlite: { type: 'integer', generationStrategy: 'increment' },
        postgres: { type: 'bigint', generationStrategy: 'identity' },
      } as const),
      isPrimary: true,
      isGenerated: true,
    };
    // Epoch milliseconds, as everywhere in this schema.
    const time = (name: string, isNullable = false): TableColumnOptions => ({ name, type: 'bigint', isNullable });

    await queryRunner.createTable(
      new Table({
        name: 'webhook_endpoints',
        columns: [
          id,
          { name: 'url', type: 'varchar', length: '2048', isNullable: false },
          // The signing secret (whsec_…): the service must sign with it, so it is stored as it is, unlike API keys.
          { name: 'secret', type: 'varchar', length: '100', isNullable: false },
          // Space-separated event types.
          { name: 'events', type: 'varchar', length: '200', isNullable: false },
          // Random, in every webhook-id of its messages (msg_<tag>_<message id>): ids stay unique beyond this database.
          { name: 'message_tag', type: 'varchar', length: '32', isNullable: false },
          time('created_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_messages',
        columns: [
          id,
          { name: 'endpoint_id', type: 'bigint', isNullable: false },
          { name: 'event_type', type: 'varchar', length: '50', isNullable: false },
          { name: 'pet_id', type: 'bigint', isNullable: false },
          // The event's timestamp.
          time('created_at'),
          { name: 'state', type: 'varchar', length: '10', isNullable: false, default: "'pending'" },
          { name: 'attempts', type: 'integer', isNullable: false, default: 0 },
          time('next_attempt_at'),
          // Set while one instance delivers it: no other attempts it until then, and a crash only delays it.
          time('locked_until', true),
          time('finished_at', true),
        ],
        checks: [{ name: 'webhook_messages_state_check', expression: `"state" IN ('pending', 'delivered', 'failed')` }],
      }),
    );
    // Serves the dispatcher's claim (an endpoint's due messages, oldest first) and the outbox depth; small, as
    // delivered and failed messages leave it.
    await queryRunner.createIndex(
      'webhook_messages',
      new TableIndex({ name: 'webhook_messages_due', columnNames: ['endpoint_id', 'next_attempt_at'], where: `"state" = 'pending'` }),
    );
    // Serves the purge of finished messages.
    await queryRunner.createIndex('webhook_messages', new TableIndex({ name: 'webhook_messages_finished_at', columnNames: ['finished_at'] }));
    await queryRunner.createTable(
      new Table({
        name: 'webhook_attempts',
        columns: [
          id,
          { name: 'endpoint_id', type: 'bigint', isNullable: false },
          { name: 'message_id', type: 'bigint', isNullable: false },
          { name: 'attempt', type: 'integer', isNullable: false },
          time('attempted_at'),
          { name: 'outcome', type: 'varchar', length: '10', isNullable: false },
          { name: 'status_code', type: 'integer', isNullable: true },
          { name: 'error', type: 'varchar', length: '200', isNullable: true },
          { name: 'duration_ms', type: 'integer', isNullable: false },
        ],
      }),
    );
    // Serves `webhooks deliveries <id>` (an endpoint's latest attempts) and the purge.
    await queryRunner.createIndex('webhook_attempts', new TableIndex({ name: 'webhook_attempts_endpoint', columnNames: ['endpoint_id', 'id'] }));
    await queryRunner.createIndex('webhook_attempts', new TableIndex({ name: 'webhook_attempts_attempted_at', columnNames: ['attempted_at'] }));

    for (const statement of perDatabase(queryRunner, { sqlite: SQLITE_TRIGGER, postgres: POSTGRES_TRIGGER })) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const dropTrigger = perDatabase(queryRunner, {
      sqlite: ['DROP TRIGGER pets_webhook_outbox'],
      postgres: ['DROP TRIGGER pets_webhook_outbox ON pets', 'DROP FUNCTION pets_webhook_outbox'],
    });
    for (const statement of dropTrigger) await queryRunner.query(statement);
    for (const table of ['webhook_attempts', 'webhook_messages', 'webhook_endpoints']) await queryRunner.dropTable(table);
  }
}

/** Whether an endpoint's space-separated `events` holds pet.created, in either database's SQL. */
const SUBSCRIBED = `' ' || events || ' ' LIKE '% pet.created %'`;

// SQLite has row triggers only: one INSERT … SELECT per pet, inside the inserting statement.
const SQLITE_TRIGGER = [
  `CREATE TRIGGER pets_webhook_outbox AFTER INSERT ON pets
   BEGIN
     INSERT INTO webhook_messages (endpoint_id, event_type, pet_id, created_at, next_attempt_at)
     SELECT id, 'pet.created', NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER), CAST(unixepoch('subsec') * 1000 AS INTEGER)
     FROM webhook_endpoints WHERE ${SUBSCRIBED} ORDER BY id;
   END`,
];

// PostgreSQL runs one INSERT … SELECT per statement over all the pets it inserted (a transition table): a batch of
// creates costs one trigger call, not one per pet.
const POSTGRES_TRIGGER = [
  `CREATE FUNCTION pets_webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO webhook_messages (endpoint_id, event_type, pet_id, created_at, next_attempt_at)
     SELECT endpoint.id, 'pet.created', pet.id, now.ms, now.ms
     FROM inserted_pets AS pet
     CROSS JOIN (SELECT id FROM webhook_endpoints WHERE ${SUBSCRIBED}) AS endpoint
     CROSS JOIN (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms) AS now
     ORDER BY pet.id, endpoint.id;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER pets_webhook_outbox AFTER INSERT ON pets REFERENCING NEW TABLE AS inserted_pets
   FOR EACH STATEMENT EXECUTE FUNCTION pets_webhook_outbox()`,
];
