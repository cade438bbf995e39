import type { DataSource } from 'typeorm';
import { toSafeInteger } from '../../database/safe-integer';
import { petSelectList, type PetRow, toPet } from '../../pets/sql/pet-row';
import type { WebhookEventType } from '../../webhooks/webhook-event';
import { type EventLogBounds, type LoggedEvent, PetEventLog } from './pet-event-log';

/** Rows given positions by one statement at most; a larger backlog takes several. */
const SEQUENCED_AT_ONCE = 1_000;

const SQL = {
  unsequenced: 'SELECT EXISTS (SELECT 1 FROM pet_events WHERE position IS NULL) AS "waiting"',
  // The sequencer's lock: one instance at a time gives positions. Another waits its turn (a few milliseconds), rather
  // than skipping it, so that a read sees every event committed before it began.
  lockCounter: 'SELECT last FROM pet_event_sequence FOR UPDATE',
  // Run after the lock is taken, so its snapshot sees every position given before: the committed rows without one
  // get the next ones, in insertion order, and the counter moves to the last. A SELECT at the end: TypeORM answers an
  // UPDATE with its rows and count instead of its rows.
  sequence: `WITH waiting AS (SELECT id FROM pet_events WHERE position IS NULL ORDER BY id LIMIT $2),
                  numbered AS (SELECT id, $1::bigint + row_number() OVER (ORDER BY id) AS position FROM waiting),
                  given AS (UPDATE pet_events SET position = numbered.position FROM numbered
                            WHERE pet_events.id = numbered.id RETURNING numbered.position),
                  counted AS (UPDATE pet_event_sequence SET last = (SELECT coalesce(max(position), $1::bigint) FROM given)
                              RETURNING last)
             SELECT last FROM counted`,
  readAfter: `SELECT e.position, e.event_type AS "type", e.created_at AS "createdAt", ${petSelectList('pets')}
              FROM pet_events e JOIN pets ON pets.id = e.pet_id
              WHERE e.position > $1 ORDER BY e.position LIMIT $2`,
  bounds: 'SELECT (SELECT min(position) FROM pet_events) AS oldest, (SELECT last FROM pet_event_sequence) AS last',
  // A row without a position is kept until it has one: purging it would leave a gap no reader could be told of.
  purge: 'DELETE FROM pet_events WHERE position IS NOT NULL AND created_at <= $1',
};

type EventRow = PetRow & { position: string; type: WebhookEventType; createdAt: string };

/**
 * The log in PostgreSQL, which several instances share. Rows are inserted without a position; before each read, the
 * committed ones are given the next positions (the create-pet-events migration says why), so that a reader reading
 * after the last position it saw never skips a row whose transaction committed late. A read sees every event
 * committed before it began.
 */
export class PostgresPetEventLog extends PetEventLog {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sequencedAtOnce = SEQUENCED_AT_ONCE,
  ) {
    super();
  }

  async readAfter(position: number, limit: number): Promise<LoggedEvent[]> {
    await this.sequence();
    const rows = (await this.dataSource.query(SQL.readAfter, [position, limit])) as EventRow[];
    return rows.map((row) => ({ position: toSafeInteger(row.position), type: row.type, createdAt: toSafeInteger(row.createdAt), pet: toPet(row) }));
  }

  async bounds(): Promise<EventLogBounds> {
    // The last position counts every event committed before: a stream that starts there starts after them.
    await this.sequence();
    const [row] = (await this.dataSource.query(SQL.bounds)) as Array<{ oldest: string | null; last: string }>;
    return { oldest: row.oldest === null ? null : toSafeInteger(row.oldest), last: toSafeInteger(row.last) };
  }

  async purge(before: number): Promise<void> {
    await this.sequence();
    await this.dataSource.query(SQL.purge, [before]);
  }

  /**
   * Gives positions to the committed rows without one. Asks first whether any waits, which most reads find none do,
   * without a transaction; one seen waiting may have been given a position by another instance meanwhile.
   */
  async sequence(): Promise<void> {
    const [{ waiting }] = (await this.dataSource.query(SQL.unsequenced)) as Array<{ waiting: boolean }>;
    if (!waiting) return;
    await this.dataSource.transaction(async (manager) => {
      const [counter] = (await manager.query(SQL.lockCounter)) as Array<{ last: string }>;
      let last = toSafeInteger(counter.last);
      for (;;) {
        const [{ last: given }] = (await manager.query(SQL.sequence, [last, this.sequencedAtOnce])) as Array<{ last: string }>;
        const next = toSafeInteger(given);
        if (next - last < this.sequencedAtOnce) return;
        last = next;
      }
    });
  }
}
