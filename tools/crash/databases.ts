import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import sqlite3 from 'sqlite3';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface CrashDatabase {
  kind: DatabaseKind;
  /** The service's DATABASE_URL. */
  url: string;
  /** Problems the database finds in its own files, [] when none; null where there is no such check. Only while the service is down. */
  integrityCheck(): Promise<string[] | null>;
  /** Removes the PostgreSQL database; the SQLite file goes with the run's folder. */
  drop(): Promise<void>;
}

/** A SQLite file in `dir`, created by the service's migrations on its first start. */
export function sqliteDatabase(dir: string): CrashDatabase {
  const path = join(dir, 'petstore.sqlite');
  return { kind: 'sqlite', url: `sqlite:${path}`, integrityCheck: () => sqliteIntegrity(path), drop: async () => undefined };
}

/** A new, empty PostgreSQL database on the server of `adminUrl`, made through that (existing) database. */
export async function postgresDatabase(adminUrl: string): Promise<CrashDatabase> {
  const name = `crash_${randomBytes(6).toString('hex')}`;
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.href,
    // PostgreSQL's own crash recovery is not under test here; whether the service's rows survived it is.
    integrityCheck: async () => null,
    drop: () => admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(adminUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// Read-only: a read-write connection would checkpoint the WAL into the file on close, and the restarted service
// would then never meet the WAL that the kill left behind.
function sqliteIntegrity(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const database = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (openError) => {
      if (openError) return reject(openError);
      database.all<{ integrity_check: string }>('PRAGMA integrity_check', (error, rows) => {
        const lines = error ? [] : rows.map((row) => row.integrity_check);
        database.close(() => (error ? reject(error) : resolve(lines.length === 1 && lines[0] === 'ok' ? [] : lines)));
      });
    });
  });
}
