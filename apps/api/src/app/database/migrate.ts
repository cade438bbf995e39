import type { DataSource, Migration } from 'typeorm';

// Any fixed number works; it names "petstore migrations" among the advisory locks of the database.
const MIGRATION_LOCK = 7_253_001;

/**
 * Brings the schema up to date. On PostgreSQL several instances may start at once: a session-level advisory
 * lock lets one of them migrate while the others wait, then find nothing left to do.
 */
export async function migrate(dataSource: DataSource): Promise<Migration[]> {
  if (dataSource.options.type !== 'postgres') return dataSource.runMigrations({ transaction: 'each' });
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
