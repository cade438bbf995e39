import type { DataSource } from 'typeorm';
import type { TransactionQueue } from '../../database/sqlite/transaction-queue';
import { petSelectList, type PetRow, toPet } from '../../pets/sql/pet-row';
import type { WebhookEventType } from '../../webhooks/webhook-event';
import { type EventLogBounds, type LoggedEvent, PetEventLog } from './pet-event-log';

const SQL = {
  // Stryker disable next-line StringLiteral: no column of pet_events shares a pet field's name here (PostgreSQL's `id` does).
  readAfter: `SELECT e.position, e.event_type AS "type", e.created_at AS "createdAt", ${petSelectList('pets')}
              FROM pet_events e JOIN pets ON pets.id = e.pet_id
              WHERE e.position > ? ORDER BY e.position LIMIT ?`,
  // AUTOINCREMENT keeps the largest key ever used in sqlite_sequence, purged or not.
  bounds: `SELECT (SELECT min(position) FROM pet_events) AS oldest,
                  coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'pet_events'), 0) AS last`,
  purge: 'DELETE FROM pet_events WHERE created_at <= ?',
};

type EventRow = PetRow & { position: number; type: WebhookEventType; createdAt: number };

/**
 * The log in the SQLite file. One writer at a time means rows are inserted in the order they commit: a row's key is
 * its position. Statements take their turn on the writing connection, as the webhook outbox's do.
 */
export class SqlitePetEventLog extends PetEventLog {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionQueue,
  ) {
    super();
  }

  async readAfter(position: number, limit: number): Promise<LoggedEvent[]> {
    const rows = (await this.transactions.run(() => this.dataSource.query(SQL.readAfter, [position, limit]))) as EventRow[];
    return rows.map((row) => ({ position: row.position, type: row.type, createdAt: row.createdAt, pet: toPet(row) }));
  }

  async bounds(): Promise<EventLogBounds> {
    const [row] = (await this.transactions.run(() => this.dataSource.query(SQL.bounds))) as EventLogBounds[];
    return row;
  }

  async purge(before: number): Promise<void> {
    await this.transactions.run(() => this.dataSource.query(SQL.purge, [before]));
  }
}
