import type { DatabaseConfig } from '../config/app-config';
import type { DatabaseDialect } from './database-dialect';
import { PostgresDialect } from './postgres/postgres.dialect';
import { SqliteDialect } from './sqlite/sqlite.dialect';

/** The one place below the pets module's factory that tells the databases apart. */
export function dialectFor(database: DatabaseConfig): DatabaseDialect {
  return database.type === 'sqlite' ? new SqliteDialect(database) : new PostgresDialect(database);
}
