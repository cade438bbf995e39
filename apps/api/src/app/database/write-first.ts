import type { EntityManager } from 'typeorm';
import { perDatabase } from './per-database';

/**
 * Takes SQLite's write lock at the start of a transaction that reads before it writes (the admin commands'). TypeORM
 * begins SQLite transactions deferred: their first write then upgrades a read snapshot, which SQLite refuses at once
 * (SQLITE_BUSY) if the service wrote in between, rather than waiting its busy timeout. A write that changes nothing,
 * first, waits for the lock as any write does. PostgreSQL needs nothing of the kind.
 */
export async function writeFirst(manager: EntityManager, table: string): Promise<void> {
  const statement = perDatabase(manager.connection, { sqlite: `UPDATE ${table} SET id = id WHERE 0`, postgres: undefined });
  if (statement) await manager.query(statement);
}
