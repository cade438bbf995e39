import type { DataSource } from 'typeorm';
import type { TransactionQueue } from '../../database/sqlite/transaction-queue';
import { SqliteWebhookOutbox } from './sqlite-webhook-outbox';
import type { AttemptRecord } from './webhook-outbox';

// The statements against a real file are test/webhooks.spec.ts's; here, what only a failing or idle database shows.
describe(SqliteWebhookOutbox.name, () => {
  const statements: string[] = [];
  const query = jest.fn(async (sql: string) => {
    statements.push(sql.trim().split(/\s+/).slice(0, 2).join(' '));
    if (sql.includes('INSERT INTO webhook_attempts')) throw new Error('disk I/O error');
    return [];
  });
  const transactions = { run: <T>(work: () => Promise<T>) => work() };
  const sut = new SqliteWebhookOutbox({ query } as unknown as DataSource, transactions as unknown as TransactionQueue);
  beforeEach(() => {
    statements.length = 0;
    query.mockClear();
  });

  it('rolls an attempt’s record back whole when a statement of it fails, and says why', async () => {
    const attempt: AttemptRecord = {
      messageId: 1,
      endpointId: 1,
      attempt: 1,
      attemptedAt: 1_000,
      outcome: 'delivered',
      statusCode: 204,
      error: null,
      durationMs: 3,
      nextAttemptAt: null,
      leaseUntil: 2_000,
    };
    await expect(sut.record([attempt])).rejects.toThrow('disk I/O error');
    expect(statements).toEqual(['BEGIN IMMEDIATE', 'UPDATE webhook_messages', 'INSERT INTO', 'ROLLBACK']);
  });

  it('claims nothing with one statement when nothing is due, as most polls find', async () => {
    expect(await sut.claim(1, 1_000, 22_000, 32)).toEqual([]);
    expect(statements).toEqual(['WITH due']);
  });
});
