import type { DataSource } from 'typeorm';
import { inImmediateTransaction } from '../../database/immediate-transaction';
import type { TransactionQueue } from '../../database/sqlite/transaction-queue';
import { petSelectList, type PetRow, toPet } from '../../pets/sql/pet-row';
import type { WebhookEventType } from '../webhook-event';
import { type AttemptRecord, type ClaimedMessage, type DispatchEndpoint, messageState, type OutboxDepth, WebhookOutbox } from './webhook-outbox';

const SQL = {
  endpoints: 'SELECT id, url, secret, message_tag AS "messageTag" FROM webhook_endpoints ORDER BY id',
  // SQLite admits one writer at a time to the file, so the look and the lease are one step for every process. Written
  // WITH first: TypeORM runs a statement that starts with UPDATE without reading its rows, RETURNING or not.
  claim: `WITH due AS (SELECT id FROM webhook_messages
                       WHERE endpoint_id = ? AND state = 'pending' AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until <= ?)
                       ORDER BY next_attempt_at, id LIMIT ?)
          UPDATE webhook_messages SET locked_until = ? WHERE id IN (SELECT id FROM due)
          RETURNING id, event_type AS "eventType", pet_id AS "petId", created_at AS "createdAt", attempts`,
  pets: `SELECT ${petSelectList()} FROM pets WHERE id IN (SELECT value FROM json_each(?))`,
  // Each attempt as a JSON array: [message id, state, attempt, attempted at, next attempt at, lease], as record() builds it.
  applyAttempts: `UPDATE webhook_messages SET state = attempt.state, attempts = attempt.attempt, next_attempt_at = coalesce(attempt.next_attempt_at, webhook_messages.next_attempt_at),
                    locked_until = NULL, finished_at = CASE WHEN attempt.state = 'pending' THEN NULL ELSE attempt.attempted_at END
                  FROM (SELECT value ->> 0 AS message_id, value ->> 1 AS state, value ->> 2 AS attempt, value ->> 3 AS attempted_at,
                               value ->> 4 AS next_attempt_at, value ->> 5 AS lease_until
                        FROM json_each(?)) AS attempt
                  WHERE webhook_messages.id = attempt.message_id AND webhook_messages.locked_until = attempt.lease_until`,
  // Only while the message exists: an attempt in flight while its endpoint was removed ends after the removal, which
  // took the message and its attempts away.
  logAttempts: `INSERT INTO webhook_attempts (endpoint_id, message_id, attempt, attempted_at, outcome, status_code, error, duration_ms)
                SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7 FROM json_each(?)
                WHERE EXISTS (SELECT 1 FROM webhook_messages WHERE webhook_messages.id = value ->> 1)`,
  release: `UPDATE webhook_messages SET locked_until = NULL WHERE state = 'pending' AND id IN (SELECT value FROM json_each(?))`,
  depth: `SELECT count(*) AS pending, min(created_at) AS "oldestCreatedAt" FROM webhook_messages WHERE state = 'pending'`,
  purgeMessages: `DELETE FROM webhook_messages WHERE finished_at <= ?`,
  purgeAttempts: `DELETE FROM webhook_attempts WHERE attempted_at <= ?`,
};

interface ClaimedRow {
  id: number;
  eventType: WebhookEventType;
  petId: number;
  createdAt: number;
  attempts: number;
}

/** The outbox in the SQLite file, written on the service's one writing connection, in its turn among transactions. */
export class SqliteWebhookOutbox extends WebhookOutbox {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionQueue,
  ) {
    super();
  }

  // Every statement here, reads too, takes its turn on the writing connection: sent to it while another of its
  // statements waits for the file's lock (another process writing), it would hold a thread of the pool, which the
  // readers and DNS lookups share, waiting for that connection, five times a second.
  endpoints(): Promise<DispatchEndpoint[]> {
    return this.transactions.run(() => this.dataSource.query(SQL.endpoints));
  }

  claim(endpointId: number, now: number, leaseUntil: number, limit: number): Promise<ClaimedMessage[]> {
    return this.transactions.run(async () => {
      const rows = (await this.dataSource.query(SQL.claim, [endpointId, now, now, limit, leaseUntil])) as ClaimedRow[];
      if (rows.length === 0) return [];
      const pets = new Map(
        ((await this.dataSource.query(SQL.pets, [JSON.stringify(rows.map((row) => row.petId))])) as PetRow[]).map(toPet).map((pet) => [pet.id, pet]),
      );
      // A message whose pet is missing cannot be: the trigger writes both in one statement, and pets are never deleted.
      return rows.map((row) => ({ ...row, endpointId, leaseUntil, pet: pets.get(row.petId) as ClaimedMessage['pet'] }));
    });
  }

  record(attempts: AttemptRecord[]): Promise<void> {
    const applied = attempts.map((a) => [a.messageId, messageState(a), a.attempt, a.attemptedAt, a.nextAttemptAt, a.leaseUntil]);
    const logged = attempts.map((a) => [a.endpointId, a.messageId, a.attempt, a.attemptedAt, a.outcome, a.statusCode, a.error, a.durationMs]);
    return this.transactions.run(() =>
      inImmediateTransaction(
        (sql) => this.dataSource.query(sql),
        async () => {
          await this.dataSource.query(SQL.applyAttempts, [JSON.stringify(applied)]);
          await this.dataSource.query(SQL.logAttempts, [JSON.stringify(logged)]);
        },
      ),
    );
  }

  async release(messageIds: number[]): Promise<void> {
    await this.transactions.run(() => this.dataSource.query(SQL.release, [JSON.stringify(messageIds)]));
  }

  async depth(): Promise<OutboxDepth> {
    const [row] = (await this.transactions.run(() => this.dataSource.query(SQL.depth))) as Array<{ pending: number; oldestCreatedAt: number | null }>;
    return row;
  }

  async purge(before: number): Promise<void> {
    await this.transactions.run(() => this.dataSource.query(SQL.purgeMessages, [before]));
    await this.transactions.run(() => this.dataSource.query(SQL.purgeAttempts, [before]));
  }
}
