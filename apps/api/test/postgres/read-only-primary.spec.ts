import { Client } from 'pg';
import { expectError } from '../support/assertions';
import { until } from '../support/until';
import { AUTH, JSON_AUTH, startApp, type TestApp } from '../support/test-app';
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from '../support/test-database';

// A primary that turns read-only under the service while its connections stay open: a demoted primary reached
// directly, a managed database's old writer turned reader, a DNS name that moved while pooled connections stayed.
// Made here on one server by making the database read-only for new sessions and ending the open ones once, as a
// demotion does. Judged by what was answered, never by how fast: every answer is 2xx or 503 with Retry-After.
jest.setTimeout(120_000);

describe('a primary that turns read-only', () => {
  let database: TestDatabase;
  let sut: TestApp;
  const name = () => new URL(database.url).pathname.slice(1);

  /** As the database's owner, on a session of its own that stays writable whatever the database's default. */
  async function asAdmin(sql: string): Promise<void> {
    const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      await client.query('SET default_transaction_read_only = off');
      await client.query(sql);
    } finally {
      await client.end();
    }
  }
  /** Every session of the service on this database ended, as a demotion or failover ends them. */
  const endSessions = () => asAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name()}' AND pid <> pg_backend_pid()`);
  const setReadOnly = async (readOnly: boolean) => {
    await asAdmin(`ALTER DATABASE ${name()} SET default_transaction_read_only = ${readOnly ? 'on' : 'off'}`);
    await endSessions();
  };

  const create = (n: number) => fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: `Ro ${n}`, categoryId: 1 }) });
  const list = () => fetch(`${sut.origin}/v1/pets?limit=100`, { headers: AUTH });
  const ready = async () => (await fetch(`${sut.origin}/health/ready`)).status;
  const logLines = (pattern: RegExp) => sut.logs().filter((line) => pattern.test(String(line.msg)));

  beforeAll(async () => {
    database = await createTestDatabase();
    sut = await startApp({ database });
    expect((await create(0)).status).toBe(201);
  });
  afterAll(async () => {
    await sut?.close();
    await asAdmin(`ALTER DATABASE ${name()} SET default_transaction_read_only = off`).catch(() => undefined);
    await database?.drop();
  });

  it('answers creates 503 with Retry-After, never 500, turns readiness red, and goes on reading', async () => {
    await setReadOnly(true);
    // Every answer from the change on is a 2xx or a 503: none is a 500, whichever connection a request met.
    const answers: number[] = [];
    await until(
      async () => {
        const response = await create(answers.length + 1);
        answers.push(response.status);
        if (response.status === 503) expect(response.headers.get('retry-after')).toBe('1');
        return response.status;
      },
      (status) => status === 503,
      'a create refused with 503',
    );
    expect(answers.filter((status) => status !== 201 && status !== 503)).toEqual([]);
    await until(ready, (status) => status === 503, 'readiness red');
    await expectError(await create(99), 503, 'service_unavailable');
    const reading = await list();
    expect(reading.status).toBe(200);
    expect(((await reading.json()) as unknown[]).length).toBeGreaterThanOrEqual(1);
    // Once per change, not a stack per request.
    expect(logLines(/read-only/i)).toHaveLength(1);
    expect(sut.logs().filter((line) => line.level === 50)).toEqual([]);
  });

  it('serves creates again, and turns readiness green, once the database is writable', async () => {
    await setReadOnly(false);
    await until(ready, (status) => status === 200, 'readiness green');
    await until(async () => (await create(100)).status, (status) => status === 201, 'a create served');
    expect(logLines(/writable again/i)).toHaveLength(1);
  });
});
