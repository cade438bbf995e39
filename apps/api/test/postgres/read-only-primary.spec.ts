import { Client } from 'pg';
import { expectError } from '../support/assertions';
import { until } from '../support/until';
import { AUTH, JSON_AUTH, startApp, type TestApp } from '../support/test-app';
import { createTestDatabase, POSTGRES_ADMIN_URL, queryDirectly, type TestDatabase } from '../support/test-database';

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
    // Reads go on, on fresh connections, although the demotion ended every session, the heartbeat's included.
    for (let n = 0; n < 10; n += 1) {
      const reading = await list();
      expect(reading.status).toBe(200);
      expect(((await reading.json()) as unknown[]).length).toBeGreaterThanOrEqual(1);
    }
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

  it('answers every write the database refuses as read-only (SQLSTATE 25006) with 503 and Retry-After, never 500', async () => {
    // A refusal on purpose, while the heartbeat still finds the database writable: each create reaches the database
    // and is refused there, as on a primary demoted under an open connection. A sequence (outside any transaction)
    // counts the refusals, so that what is judged is the database's refusal and not the heartbeat's verdict.
    await queryDirectly(database, `CREATE SEQUENCE refusals;
      CREATE FUNCTION refuse_writes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM nextval('refusals'); RAISE EXCEPTION 'cannot execute INSERT in a read-only transaction' USING ERRCODE = '25006'; END $$;
      CREATE TRIGGER refuse_writes BEFORE INSERT ON pets FOR EACH ROW EXECUTE FUNCTION refuse_writes()`);
    const refusals = async () => Number((await queryDirectly<{ n: string }>(database, 'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM refusals'))[0].n);
    try {
      const answers: Array<{ status: number; retryAfter: string | null; code?: string }> = [];
      await until(
        async () => {
          const n = answers.length;
          const headers = n % 2 === 0 ? JSON_AUTH : { ...JSON_AUTH, 'idempotency-key': `refused-${n}` };
          const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `Refused ${n}`, categoryId: 1 }) });
          const body = (await response.json()) as { code?: string };
          answers.push({ status: response.status, retryAfter: response.headers.get('retry-after'), code: body.code });
          return refusals();
        },
        (refused) => refused >= 6,
        'six creates refused by the database',
        60_000,
      );
      expect(answers.filter((answer) => answer.status !== 503 || answer.retryAfter !== '1' || answer.code !== 'service_unavailable')).toEqual([]);
      expect(sut.logs().filter((line) => line.level === 50)).toEqual([]);
    } finally {
      await queryDirectly(database, 'DROP TRIGGER refuse_writes ON pets; DROP FUNCTION refuse_writes(); DROP SEQUENCE refusals');
    }
    await until(async () => (await create(1)).status, (status) => status === 201, 'a create served once the database takes writes');
  });
});
