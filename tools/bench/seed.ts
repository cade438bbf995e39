import { nameSearchKey } from '@petstore/contract';
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { withClient } from '@petstore/testing';
import { startService, stopServer } from './servers';

/**
 * Lets the built service make the schema with its own migrations. The database is then seeded directly, which is much
 * faster than POSTs and leaves the service's schema exactly as it made it.
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

/** Mostly available, a tenth sold, a rare pending; always the same for a given n. */
export function statusOf(n: number): string {
  if (n % 1000 === 0) return 'pending';
  return n % 10 === 5 ? 'sold' : 'available';
}

const nameOf = (n: number) => `Pet ${n}`;
const categoryOf = (n: number) => 1 + (n % 50);

/** See {@link seedSqlite}. */
export function seededCopy(template: string, file: string, count: number): string {
  copyFileSync(template, file);
  seedSqlite(file, count);
  return file;
}

/**
 * Into a migrated, empty SQLite file, with search keys where the schema has the column (an earlier build's, --baseline,
 * has not); its triggers fill the name index.
 */
export function seedSqlite(file: string, count: number): void {
  const db = new Database(file);
  const keyed = (db.prepare(`SELECT count(*) AS found FROM pragma_table_info('pets') WHERE name = 'name_key'`).get() as { found: number }).found > 0;
  const insert = keyed
    ? db.prepare('INSERT INTO pets (name, category_id, status, name_key) VALUES (?, ?, ?, ?)')
    : db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let n = 1; n <= count; n++) {
      const values = [nameOf(n), categoryOf(n), statusOf(n)];
      insert.run(...(keyed ? [...values, nameSearchKey(nameOf(n))] : values));
    }
  })();
  db.close();
  checkpoint(file);
}

/** The same pets in a migrated, empty PostgreSQL database. */
export async function seedPostgres(databaseUrl: string, count: number): Promise<void> {
  const ns = Array.from({ length: count }, (_, i) => i + 1);
  await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query(`SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'pets' AND column_name = 'name_key'`);
    const names = ns.map(nameOf);
    // With the search keys where the schema has them (not an earlier build's, --baseline).
    await client.query(
      rows.length > 0
        ? `INSERT INTO pets (name, category_id, status, name_key)
           SELECT name, category_id, status, name_key FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) WITH ORDINALITY AS p(name, category_id, status, name_key, n)
           ORDER BY n`
        : `INSERT INTO pets (name, category_id, status)
           SELECT name, category_id, status FROM unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS p(name, category_id, status, n)
           ORDER BY n`,
      [names, ns.map(categoryOf), ns.map(statusOf), ...(rows.length > 0 ? [names.map(nameSearchKey)] : [])],
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
