import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { createPostgresDatabase, freePort, startPgBouncer } from '@petstore/testing';

export type DatabaseKind = 'sqlite' | 'postgres' | 'pgbouncer';

export interface CrashDatabase {
  kind: DatabaseKind;
  /** The service's DATABASE_URL. */
  url: string;
  /** Problems the database finds in its own files; null where there is no such check. Only with the service down. */
  integrityCheck(): Promise<string[] | null>;
  /** Removes the PostgreSQL database; the SQLite file goes with the run's folder. */
  drop(): Promise<void>;
}

/** A SQLite file in `dir`, created by the service's migrations on its first start. */
export function sqliteDatabase(dir: string): CrashDatabase {
  const path = join(dir, 'petstore.sqlite');
  return { kind: 'sqlite', url: `sqlite:${path}`, integrityCheck: () => sqliteIntegrity(path), drop: async () => undefined };
}

/** A new, empty PostgreSQL database on the server of `adminUrl`. */
export async function postgresDatabase(adminUrl: string): Promise<CrashDatabase> {
  const { url, drop } = await createPostgresDatabase(adminUrl, 'crash');
  // PostgreSQL's own crash recovery is not under test here; whether the service's rows survived it is.
  return { kind: 'postgres', url, integrityCheck: async () => null, drop };
}

/**
 * The same, through PgBouncer in transaction pooling mode: a crash must not leave the pooler holding anything the
 * restarted service would trip on.
 */
export async function pgbouncerDatabase(adminUrl: string): Promise<CrashDatabase> {
  const database = await postgresDatabase(adminUrl);
  const server = new URL(adminUrl);
  const pgbouncer = await startPgBouncer({ host: server.hostname, port: Number(server.port || 5432) }, await freePort());
  return {
    ...database,
    kind: 'pgbouncer',
    url: `${pgbouncer.origin}${new URL(database.url).pathname}`,
    drop: async () => {
      await pgbouncer.stop();
      await database.drop();
    },
  };
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
