import type { DataSource, Migration } from 'typeorm';

// Any fixed number works; it names "petstore migrations" among the advisory locks of the database.
const MIGRATION_LOCK = 7_253_001;

/**
 * Brings the schema up to date. Several instances may start at once, on one PostgreSQL database or one SQLite file:
 * one of them migrates while the others wait, then find nothing left to do.
 */
export async function migrate(dataSource: DataSource): Promise<Migration[]> {
  if (dataSource.options.type !== 'postgres') return migrateSqlite(dataSource);
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    return await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}

/**
 * SQLite has no advisory locks, so the write lock serves: taken before the migrations table is read, it makes the
 * check and the migrations one transaction that a second process waits for (its busy timeout) instead of running
 * the same migrations beside it. The migrations then apply all or none.
 */
async function migrateSqlite(dataSource: DataSource): Promise<Migration[]> {
  await dataSource.query('BEGIN IMMEDIATE');
  try {
    const applied = await dataSource.runMigrations({ transaction: 'none' });
    await dataSource.query('COMMIT');
    return applied;
  } catch (error) {
    await dataSource.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
