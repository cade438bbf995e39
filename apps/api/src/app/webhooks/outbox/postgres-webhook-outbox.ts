import type { DataSource } from 'typeorm';
import { toSafeInteger } from '../../database/safe-integer';
import { petSelectList, type PetRow, toPet } from '../../pets/sql/pet-row';
import type { WebhookEventType } from '../webhook-event';
import { type AttemptRecord, type ClaimedMessage, type DispatchEndpoint, messageState, type OutboxDepth, WebhookOutbox } from './webhook-outbox';

const SQL = {
  endpoints: 'SELECT id, url, secret, message_tag AS "messageTag" FROM webhook_endpoints ORDER BY id',
  // SKIP LOCKED: instances claiming at the same moment take different messages instead of waiting for each other;
  // the lease then keeps the claim for the length of the delivery. The pet comes with its message, in one statement.
  claim: `WITH claimed AS (
            UPDATE webhook_messages SET locked_until = $1
            WHERE id IN (SELECT id FROM webhook_messages
                         WHERE endpoint_id = $2 AND state = 'pending' AND next_attempt_at <= $3 AND (locked_until IS NULL OR locked_until <= $3)
                         ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
            RETURNING id, event_type, pet_id, created_at, attempts)
          SELECT claimed.id AS "messageId", claimed.event_type AS "eventType", claimed.created_at AS "createdAt", claimed.attempts,
                 ${petSelectList('pets')}
          FROM claimed JOIN pets ON pets.id = claimed.pet_id ORDER BY claimed.id`,
  applyAttempts: `UPDATE webhook_messages SET state = attempt.state, attempts = attempt.attempt,
                    next_attempt_at = coalesce(attempt.next_attempt_at, webhook_messages.next_attempt_at), locked_until = NULL,
                    finished_at = CASE WHEN attempt.state = 'pending' THEN NULL ELSE attempt.attempted_at END
                  FROM unnest($1::bigint[], $2::varchar[], $3::int[], $4::bigint[], $5::bigint[], $6::bigint[])
                    AS attempt (message_id, state, attempt, attempted_at, next_attempt_at, lease_until)
                  WHERE webhook_messages.id = attempt.message_id AND webhook_messages.locked_until = attempt.lease_until`,
  // Only while the message exists: an attempt in flight while its endpoint was removed ends after the removal, which
  // took the message and its attempts away. The removal's table lock orders it against this transaction's update.
  logAttempts: `INSERT INTO webhook_attempts (endpoint_id, message_id, attempt, attempted_at, outcome, status_code, error, duration_ms)
                SELECT attempt.* FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::bigint[], $5::varchar[], $6::int[], $7::varchar[], $8::int[])
                  AS attempt (endpoint_id, message_id, attempt, attempted_at, outcome, status_code, error, duration_ms)
                WHERE EXISTS (SELECT 1 FROM webhook_messages WHERE webhook_messages.id = attempt.message_id)`,
  release: `UPDATE webhook_messages SET locked_until = NULL WHERE state = 'pending' AND id = ANY($1::bigint[])`,
  depth: `SELECT count(*) AS pending, min(created_at) AS "oldestCreatedAt" FROM webhook_messages WHERE state = 'pending'`,
  purgeMessages: 'DELETE FROM webhook_messages WHERE finished_at <= $1',
  purgeAttempts: 'DELETE FROM webhook_attempts WHERE attempted_at <= $1',
};

/** A claimed message with its pet's columns. */
type ClaimedRow = PetRow & { messageId: string; eventType: WebhookEventType; createdAt: string; attempts: number };

/** The outbox in PostgreSQL, which several instances share. */
export class PostgresWebhookOutbox extends WebhookOutbox {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async endpoints(): Promise<DispatchEndpoint[]> {
    const rows = (await this.dataSource.query(SQL.endpoints)) as Array<DispatchEndpoint & { id: string }>;
    return rows.map((row) => ({ ...row, id: toSafeInteger(row.id) }));
  }

  async claim(endpointId: number, now: number, leaseUntil: number, limit: number): Promise<ClaimedMessage[]> {
    const rows = (await this.dataSource.query(SQL.claim, [leaseUntil, endpointId, now, limit])) as ClaimedRow[];
    return rows.map((row) => ({
      id: toSafeInteger(row.messageId),
      endpointId,
      eventType: row.eventType,
      createdAt: toSafeInteger(row.createdAt),
      attempts: row.attempts,
      leaseUntil,
      pet: toPet(row),
    }));
  }

  async record(attempts: AttemptRecord[]): Promise<void> {
    const column = <K extends keyof AttemptRecord>(key: K) => attempts.map((attempt) => attempt[key]);
    await this.dataSource.transaction(async (manager) => {
      // Not worth waiting for the WAL flush: an outcome lost to a crash of the database only means the message is
      // sent again, which at-least-once allows. For this transaction only, which PgBouncer's transaction mode keeps.
      // Stryker disable next-line StringLiteral: a trade of durability for speed that no answer shows
      await manager.query('SET LOCAL synchronous_commit = off');
      await manager.query(SQL.applyAttempts, [column('messageId'), attempts.map(messageState), column('attempt'), column('attemptedAt'), column('nextAttemptAt'), column('leaseUntil')]);
      await manager.query(SQL.logAttempts, [
        column('endpointId'),
        column('messageId'),
        column('attempt'),
        column('attemptedAt'),
        column('outcome'),
        column('statusCode'),
        column('error'),
        column('durationMs'),
      ]);
    });
  }

  async release(messageIds: number[]): Promise<void> {
    await this.dataSource.query(SQL.release, [messageIds]);
  }

  async depth(): Promise<OutboxDepth> {
    const [row] = (await this.dataSource.query(SQL.depth)) as Array<{ pending: string; oldestCreatedAt: string | null }>;
    return { pending: toSafeInteger(row.pending), oldestCreatedAt: row.oldestCreatedAt === null ? null : toSafeInteger(row.oldestCreatedAt) };
  }

  async purge(before: number): Promise<void> {
    await this.dataSource.query(SQL.purgeMessages, [before]);
    await this.dataSource.query(SQL.purgeAttempts, [before]);
  }
}
