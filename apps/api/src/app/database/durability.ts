import type { DataSource } from 'typeorm';

// PRAGMA synchronous values: 2 is FULL, which syncs the WAL at every commit so that a 201 survives a power cut.
const SYNCHRONOUS_FULL = 2;
/** Pause before asking again for WAL when another connection was switching the file at the same moment. */
const WAL_RETRY_MS = 10;

/**
 * A 201 means committed and synced. SQLite: WAL with synchronous=FULL, set here and read back. PostgreSQL: its
 * default commit, which waits for the WAL flush; refused if an operator turned synchronous_commit off.
 * Returns a description for the start-up log.
 */
export async function ensureDurability(dataSource: DataSource): Promise<string> {
  if (dataSource.options.type === 'postgres') {
    const [{ synchronous_commit: commit }] = await dataSource.query('SHOW synchronous_commit');
    if (commit === 'off') throw new Error('PostgreSQL synchronous_commit is off: a 201 would not mean durable');
    return `PostgreSQL, synchronous_commit=${commit}`;
  }
  await switchToWal(dataSource);
  await dataSource.query('PRAGMA synchronous = FULL');
  const [{ journal_mode: journalMode }] = await dataSource.query('PRAGMA journal_mode');
  const [{ synchronous }] = await dataSource.query('PRAGMA synchronous');
  // An in-memory database (sqlite::memory:, for throwaway runs) has no WAL to speak of.
  if ((journalMode !== 'wal' && journalMode !== 'memory') || synchronous !== SYNCHRONOUS_FULL) {
    throw new Error(`SQLite durability not in force: journal_mode=${journalMode}, synchronous=${synchronous}`);
  }
  return `SQLite, journal_mode=${journalMode}, synchronous=FULL`;
}

/**
 * Switches the file to WAL, which it keeps (asking again is a no-op). When connections ask at the same moment, as
 * processes starting together on a new file do, SQLite may refuse one with SQLITE_BUSY at once, without waiting out its
 * busy timeout: that one asks again, for as long as the busy timeout.
 */
async function switchToWal(dataSource: DataSource): Promise<void> {
  const deadline = Date.now() + (dataSource.options.type === 'sqlite' ? (dataSource.options.busyTimeout ?? 0) : 0);
  for (;;) {
    try {
      await dataSource.query('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, WAL_RETRY_MS));
    }
  }
}
