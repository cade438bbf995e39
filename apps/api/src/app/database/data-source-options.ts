import pg from 'pg';
import sqlite3 from 'sqlite3';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config';

// TypeORM switches sqlite3 into verbose mode, which captures a stack trace on every statement (a tenth of the CPU
// of a list request). Errors still name their SQL through TypeORM's QueryFailedError.
const quietSqlite3 = Object.assign(Object.create(sqlite3) as typeof sqlite3, { verbose: () => quietSqlite3 });
import { ApiKeyEntity } from '../auth/api-key.entity';
import { PetEntity } from '../pets/pet.entity';
import { migrations } from './migrations';

/** TypeORM settings for either database; the schema always comes from the same migrations. */
export function dataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  const common = { entities: [PetEntity, ApiKeyEntity], migrations, migrationsRun: false, synchronize: false };
  // The drivers are passed explicitly so that the build sees them and lists them in dist/apps/api/package.json.
  if (database.type === 'sqlite') {
    return {
      ...common,
      type: 'sqlite',
      driver: quietSqlite3,
      database: database.path,
      enableWAL: true,
      // How long a write waits for another writer's lock before the request gets a 503.
      busyTimeout: database.connectTimeoutMs,
    };
  }
  return {
    ...common,
    type: 'postgres',
    driver: pg,
    url: database.url,
    poolSize: database.poolSize,
    connectTimeoutMS: database.connectTimeoutMs,
    applicationName: 'petstore',
    extra: {
      // Bounded on the server and, should the network hang, on the client: no request waits forever.
      statement_timeout: database.statementTimeoutMs,
      query_timeout: database.statementTimeoutMs + 1_000,
      idle_in_transaction_session_timeout: database.statementTimeoutMs * 2,
    },
  };
}
