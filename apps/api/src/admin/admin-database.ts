import { DataSource, type DataSourceOptions } from 'typeorm';
import { loadDatabaseConfig } from '../app/config/app-config';
import { dialectFor } from '../app/database/chosen-dialect';

/**
 * Runs one admin command's work on the configured database (DATABASE_URL, as the service reads it), connected once as
 * the service connects (through PgBouncer too) and migrated first, then disconnects whatever the work did. `entities`:
 * the feature's, which the work reads and writes through TypeORM.
 */
export async function withDatabase<T>(entities: DataSourceOptions['entities'], work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dialect = dialectFor(loadDatabaseConfig());
  const dataSource = new DataSource({ ...(await dialect.options()), entities });
  await dialect.connectOnce(dataSource);
  try {
    // The service may never have run on this database: make sure the tables exist.
    await dialect.migrate(dataSource);
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
