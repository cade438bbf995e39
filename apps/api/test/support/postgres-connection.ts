import { DataSource } from 'typeorm';
import { PostgresDialect } from '../../src/app/database/postgres/postgres.dialect';
import type { TestDatabase } from './test-database';

/** What a spec of PostgreSQL's own code needs: a connection pool of its own, as another instance would have, and its dialect. */
export interface PostgresConnection {
  dataSource: DataSource;
  dialect: PostgresDialect;
}

/**
 * Connects to `database` as DatabaseConnection does (through PgBouncer, the first attempt tells the dialect to drop the
 * session settings), then migrates it unless told not to.
 */
export async function connectPostgres(database: TestDatabase, { migrate = true, poolSize = 4 } = {}): Promise<PostgresConnection> {
  const dialect = new PostgresDialect({ type: 'postgres', url: database.url, poolSize, connectTimeoutMs: 5_000, statementTimeoutMs: 5_000 });
  const dataSource = new DataSource(await dialect.options());
  await dataSource.initialize().catch(async (error: unknown) => {
    if (!dialect.adaptTo(dataSource, error)) throw error;
    await dataSource.initialize();
  });
  if (migrate) await dialect.migrate(dataSource);
  return { dataSource, dialect };
}
