import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { startService, stopServer } from './servers';

/**
 * An empty database whose schema the built service made with its own migrations: started once on a fresh file,
 * stopped once /health/ready says the migrations ran. Copies of it are then seeded directly, which is much faster
 * than a million POSTs and leaves the service's schema (tables, index, sqlite_sequence) exactly as it made it.
 */
export async function migratedTemplate(dir: string): Promise<string> {
  const file = join(dir, 'template.sqlite');
  const service = await startService({ database: file, logFile: join(dir, 'template.log'), logLevel: 'warn' });
  await stopServer(service);
  checkpoint(file);
  return file;
}

/** The status of the n-th pet: mostly available, 10% sold, a rare pending (0.1%), always the same for a given n. */
export function statusOf(n: number): string {
  if (n % 1000 === 0) return 'pending';
  return n % 10 === 5 ? 'sold' : 'available';
}

/** A copy of the template with `count` pets (ids 1..count), inserted by one prepared statement in one transaction. */
export function seededCopy(template: string, file: string, count: number): string {
  copyFileSync(template, file);
  const db = new Database(file);
  const insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let n = 1; n <= count; n++) insert.run(`Pet ${n}`, 1 + (n % 50), statusOf(n));
  })();
  db.close();
  checkpoint(file);
  return file;
}

// A file is copied on its own, without its -wal: everything must be in the main file first.
function checkpoint(file: string): void {
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
