import type { DataSourceOptions } from 'typeorm';
import { ApiKeyEntity } from '../auth/api-key.entity';
import type { DatabaseConfig } from '../config/app-config';
import { PetEntity } from '../pets/pet.entity';
import { migrations } from './migrations';

/**
 * TypeORM settings for either database; the schema always comes from the same migrations. Only the driver in use
 * is loaded (each costs some 15 MB). They are named explicitly so that the build lists them in its package.json.
 */
export async function dataSourceOptions(database: DatabaseConfig): Promise<DataSourceOptions> {
  const common = { entities: [PetEntity, ApiKeyEntity], migrations, migrationsRun: false, synchronize: false };
  if (database.type === 'sqlite') {
    const { default: sqlite3 } = await import('sqlite3');
    // TypeORM switches sqlite3 into verbose mode, which captures a stack trace on every statement (a tenth of the
    // CPU of a list request). Errors still carry their SQL through TypeORM's QueryFailedError.
    const quietSqlite3: typeof sqlite3 = Object.assign(Object.create(sqlite3), { verbose: () => quietSqlite3 });
    return {
      ...common,
      type: 'sqlite',
      driver: quietSqlite3,
      database: database.path,
      // WAL is switched on by ensureDurability (durability.ts), which asks again when processes starting together on a
      // new file ask at once and SQLite refuses one of them without waiting; TypeORM's switch would fail the start.
      enableWAL: false,
      // How long a write waits for another writer's lock, in this process or another, before the request gets a 503.
      busyTimeout: database.connectTimeoutMs,
    };
  }
  return {
    ...common,
    type: 'postgres',
    driver: (await import('pg')).default,
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
