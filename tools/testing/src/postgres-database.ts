// What everything that runs the service on PostgreSQL (the benchmark, the crash harness, the end-to-end clusters)
// shares: the server it makes its throwaway databases on, and how it makes and drops one.
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { Client } from 'pg';

/** An existing database on the server to create the run's database through; as the HTTP suite's PostgreSQL leg. */
export const DEFAULT_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? `postgres://${userInfo().username}@127.0.0.1:5432/test`;

export interface PostgresDatabase {
  name: string;
  /** The service's DATABASE_URL. */
  url: string;
  /** Drops the database, closing whatever connections are still open on it. */
  drop(): Promise<void>;
}

/** A new, empty database named `<prefix>_<random>` on the server of `adminUrl`. */
export async function createPostgresDatabase(adminUrl: string, prefix: string): Promise<PostgresDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  };
  return { name, url: url.href, drop };
}

/** Runs `work` on a fresh connection to `url`, closed afterwards. */
export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
