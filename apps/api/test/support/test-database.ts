import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** Which database the HTTP suite runs on: the same specs run on SQLite and, as `api:postgres`, on PostgreSQL. */
export const TEST_DATABASE: 'sqlite' | 'postgres' = process.env.PETSTORE_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/** The server the PostgreSQL leg creates its databases on; by default trust authentication as the current OS user. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? `postgres://${userInfo().username}@127.0.0.1:5432/test`;

export interface TestDatabase {
  /** The DATABASE_URL the service is given. */
  url: string;
  /** Removes the SQLite folder or the PostgreSQL database. */
  drop(): Promise<void>;
}

let created = 0;

/** A new, empty database of the kind this run tests. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DATABASE === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-test-'));
    return { url: `sqlite:${join(dir, 'petstore.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  created += 1;
  const name = `petstore_test_${process.pid}_${created}_${Math.random().toString(36).slice(2, 8)}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  // The pooler leg reaches the same server's database through PgBouncer.
  const url = new URL(process.env.PETSTORE_TEST_VIA_PGBOUNCER === 'true' ? (process.env.PETSTORE_TEST_PGBOUNCER_ORIGIN as string) : POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

const admin = async (work: (client: Client) => Promise<unknown>): Promise<void> => {
  await withSession(POSTGRES_ADMIN_URL, work);
};

/** A test database's URL on the PostgreSQL server itself, not through PgBouncer. */
export const directUrl = (database: TestDatabase): string =>
  Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: new URL(database.url).pathname }).href;

/** The rows of `sql` on a session of its own on the server itself, as the database's owner. */
export const queryDirectly = <T>(database: TestDatabase, sql: string, values: unknown[] = []): Promise<T[]> =>
  withSession(directUrl(database), async (client) => (await client.query(sql, values)).rows as T[]);

async function withSession<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export const sqlitePath = (database: TestDatabase) => database.url.slice('sqlite:'.length);

/**
 * Holds the database's write lock from another connection until the returned function is called: creates wait
 * (SQLite: up to its busy timeout) while reads go on.
 */
export async function holdWriteLock(database: TestDatabase): Promise<() => Promise<void>> {
  if (TEST_DATABASE === 'sqlite') {
    const { Database } = await import('sqlite3');
    const other = new Database(sqlitePath(database));
    const run = (sql: string) => new Promise<void>((resolve, reject) => other.run(sql, (error) => (error ? reject(error) : resolve())));
    await run('BEGIN EXCLUSIVE');
    return async () => {
      await run('ROLLBACK');
      await new Promise((resolve) => other.close(resolve));
    };
  }
  const client = new Client({ connectionString: database.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE pets IN EXCLUSIVE MODE');
  return async () => {
    await client.query('ROLLBACK');
    await client.end();
  };
}
