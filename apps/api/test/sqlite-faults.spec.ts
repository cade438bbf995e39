import { Database } from 'sqlite3';
import { expectError } from './support/assertions';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';
import { sqlitePath, TEST_DATABASE } from './support/test-database';

const run = (db: Database, sql: string) => new Promise<void>((resolve, reject) => db.run(sql, (error) => (error ? reject(error) : resolve())));

// On SQLite the database cannot go away, but its file can be locked by another writer.
(TEST_DATABASE === 'sqlite' ? describe : describe.skip)('SQLite faults', () => {
  let sut: TestApp;
  beforeEach(async () => {
    sut = await startApp({ env: { DATABASE_CONNECT_TIMEOUT_MS: '500' } });
  });
  afterEach(() => sut.close());

  // Answered while the lock is still held (it is released only afterwards): a service that waited for it would hang here.
  it('answers 503 once its busy timeout has passed while another process holds the write lock, then serves again', async () => {
    const other = new Database(sqlitePath(sut.database));
    try {
      await run(other, 'BEGIN EXCLUSIVE');
      const started = Date.now();
      const blocked = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: '{"name":"Rex","categoryId":1}' });
      await expectError(blocked, 503, 'service_unavailable');
      expect(blocked.headers.get('retry-after')).toBe('1');
      // Not at once: a lock held for less than the busy timeout (DATABASE_CONNECT_TIMEOUT_MS) is waited out.
      expect(Date.now() - started).toBeGreaterThanOrEqual(450);
      // Reads go on: WAL lets them past a writer.
      expect((await fetch(`${sut.origin}/v1/pets`, { headers: AUTH })).status).toBe(200);
      await run(other, 'ROLLBACK');
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
    const after = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: '{"name":"Rex","categoryId":1}' });
    expect(after.status).toBe(201);
    expect(await sut.storedPets()).toHaveLength(1);
  });

  it('does not spend an Idempotency-Key on a create that failed: the retry creates the pet once', async () => {
    const other = new Database(sqlitePath(sut.database));
    const create = () =>
      fetch(`${sut.origin}/v1/pets`, {
        method: 'POST',
        headers: { ...JSON_AUTH, 'idempotency-key': 'fault-1' },
        body: '{"name":"Rex","categoryId":1}',
      });
    try {
      await run(other, 'BEGIN EXCLUSIVE');
      await expectError(await create(), 503, 'service_unavailable');
      await run(other, 'ROLLBACK');
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
    const retry = await create();
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const again = await create();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await retry.json());
    expect(await sut.storedPets()).toHaveLength(1);
  });
});
