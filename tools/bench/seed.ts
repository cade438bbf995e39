import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { withClient } from '../postgres-database';
import { startService, stopServer } from './servers';

/**
 * Lets the built service make the schema with its own migrations: started once on an empty database, stopped once
 * /health/ready says the migrations ran. The database is then seeded directly, which is much faster than a million
 * POSTs and leaves the service's schema (tables, index, sequences) exactly as it made it.
 */
export async function migrate(databaseUrl: string, logFile: string, main?: string): Promise<void> {
  await stopServer(await startService({ databaseUrl, logFile, logLevel: 'warn', main }));
}

/** An empty, migrated SQLite file that seeded copies are made of. */
export async function migratedTemplate(dir: string): Promise<string> {
  const file = join(dir, 'template.sqlite');
  await migrate(`sqlite:${file}`, join(dir, 'template.log'));
  checkpoint(file);
  return file;
}

/** The status of the n-th pet: mostly available, 10% sold, a rare pending (0.1%), always the same for a given n. */
export function statusOf(n: number): string {
  if (n % 1000 === 0) return 'pending';
  return n % 10 === 5 ? 'sold' : 'available';
}

const nameOf = (n: number) => `Pet ${n}`;
const categoryOf = (n: number) => 1 + (n % 50);

/** A copy of the template with `count` pets (ids 1..count): see {@link seedSqlite}. */
export function seededCopy(template: string, file: string, count: number): string {
  copyFileSync(template, file);
  seedSqlite(file, count);
  return file;
}

/** `count` pets (ids 1..count) into a migrated, empty SQLite file, by one prepared statement in one transaction. */
export function seedSqlite(file: string, count: number): void {
  const db = new Database(file);
  const insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let n = 1; n <= count; n++) insert.run(nameOf(n), categoryOf(n), statusOf(n));
  })();
  db.close();
  checkpoint(file);
}

/** The same `count` pets (ids 1..count) in a migrated, empty PostgreSQL database, in one statement; then analysed. */
export async function seedPostgres(databaseUrl: string, count: number): Promise<void> {
  const ns = Array.from({ length: count }, (_, i) => i + 1);
  await withClient(databaseUrl, async (client) => {
    await client.query(
      `INSERT INTO pets (name, category_id, status)
       SELECT name, category_id, status FROM unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS p(name, category_id, status, n)
       ORDER BY n`,
      [ns.map(nameOf), ns.map(categoryOf), ns.map(statusOf)],
    );
    // Fresh statistics, as a table that has lived a while would have: the planner then picks the index.
    await client.query('VACUUM ANALYZE pets');
  });
}

// A file is copied on its own, without its -wal: everything must be in the main file first.
function checkpoint(file: string): void {
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
