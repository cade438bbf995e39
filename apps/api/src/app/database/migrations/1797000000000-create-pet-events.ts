import type { MigrationInterface, QueryRunner } from 'typeorm';
import { perDatabase } from '../per-database';

/**
 * 1.2.0: the log of events that `GET /v1/events` streams, one row per pet created, each with a position: an integer
 * that increases with every event in the order they became visible, the same for every instance.
 *
 * The log is filled by a trigger on `pets`, as the webhook outbox is: in the inserting statement's transaction, for
 * every code path and every version of the service that inserts pets (an instance of 1.1 during a rolling upgrade).
 *
 * - SQLite admits one writer at a time, so the order rows are inserted in is the order they commit in: the position
 *   is the row's AUTOINCREMENT key, never reused once purged (sqlite_sequence keeps the last).
 * - PostgreSQL hands out identities in the order inserting transactions run, not the order they commit: a reader that
 *   sent everything above the last id it saw would skip a row whose transaction committed late. So a row is inserted
 *   without a position, and positions are given afterwards to committed rows only, by one sequencer at a time under
 *   the lock of `pet_event_sequence`'s one row, which holds the last position given (PostgresPetEventLog). A row
 *   committed late gets a later position; readers read by position, so nothing is ever skipped.
 */
export class CreatePetEvents1797000000000 implements MigrationInterface {
  name = 'CreatePetEvents1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of perDatabase(queryRunner, { sqlite: SQLITE_UP, postgres: POSTGRES_UP })) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const statements = perDatabase(queryRunner, {
      sqlite: ['DROP TRIGGER pets_event_log', 'DROP TABLE pet_events'],
      postgres: ['DROP TRIGGER pets_event_log ON pets', 'DROP FUNCTION pets_event_log', 'DROP TABLE pet_event_sequence', 'DROP TABLE pet_events'],
    });
    for (const statement of statements) await queryRunner.query(statement);
  }
}

// Epoch milliseconds, as everywhere in this schema; the event's timestamp.
const SQLITE_NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;

const SQLITE_UP = [
  `CREATE TABLE pet_events (
     position INTEGER PRIMARY KEY AUTOINCREMENT,
     event_type varchar(50) NOT NULL,
     pet_id bigint NOT NULL,
     created_at bigint NOT NULL
   )`,
  // Serves the purge of events older than they are kept.
  'CREATE INDEX pet_events_created_at ON pet_events (created_at)',
  `CREATE TRIGGER pets_event_log AFTER INSERT ON pets
   BEGIN
     INSERT INTO pet_events (event_type, pet_id, created_at) VALUES ('pet.created', NEW.id, ${SQLITE_NOW_MS});
   END`,
];

const POSTGRES_UP = [
  `CREATE TABLE pet_events (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     position bigint,
     event_type varchar(50) NOT NULL,
     pet_id bigint NOT NULL,
     created_at bigint NOT NULL
   )`,
  // Serves the readers (events after a position, in order) and the oldest position kept.
  'CREATE UNIQUE INDEX pet_events_position ON pet_events (position)',
  // Serves the sequencer: the committed rows still without a position, in insertion order. Small: they get one soon.
  'CREATE INDEX pet_events_unsequenced ON pet_events (id) WHERE position IS NULL',
  'CREATE INDEX pet_events_created_at ON pet_events (created_at)',
  // The last position given: never lowered, so a purge that empties the log reuses no position.
  'CREATE TABLE pet_event_sequence (last bigint NOT NULL)',
  'INSERT INTO pet_event_sequence (last) VALUES (0)',
  // One INSERT … SELECT per statement over the pets it inserted (a transition table), as the outbox's trigger.
  `CREATE FUNCTION pets_event_log() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO pet_events (event_type, pet_id, created_at)
     SELECT 'pet.created', pet.id, (extract(epoch FROM clock_timestamp()) * 1000)::bigint
     FROM inserted_pets AS pet ORDER BY pet.id;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER pets_event_log AFTER INSERT ON pets REFERENCING NEW TABLE AS inserted_pets
   FOR EACH STATEMENT EXECUTE FUNCTION pets_event_log()`,
];
