import type { DataSource, DataSourceOptions, Migration } from 'typeorm';
import type { DatabaseConfig } from '../../config/app-config';
import { DatabaseDialect } from '../database-dialect';
import { SCHEMA_OPTIONS } from '../schema';

type PostgresConfig = Extract<DatabaseConfig, { type: 'postgres' }>;

// Any fixed number works; it names "petstore migrations" among the advisory locks of the database.
const MIGRATION_LOCK = 7_253_001;

/** A PostgreSQL server, which several instances of the service may share. */
export class PostgresDialect extends DatabaseDialect {
  constructor(private readonly config: PostgresConfig) {
    super();
  }

  async options(): Promise<DataSourceOptions> {
    const { statementTimeoutMs } = this.config;
    return {
      type: 'postgres',
      driver: (await import('pg')).default,
      url: this.config.url,
      ...SCHEMA_OPTIONS,
      poolSize: this.config.poolSize,
      connectTimeoutMS: this.config.connectTimeoutMs,
      applicationName: 'petstore',
      extra: {
        // Bounded on the server and, should the network hang, on the client: no request waits forever.
        statement_timeout: statementTimeoutMs,
        query_timeout: statementTimeoutMs + 1_000,
        idle_in_transaction_session_timeout: statementTimeoutMs * 2,
      },
    };
  }

  /** Its default commit, which waits for the WAL flush; refused if an operator turned synchronous_commit off. */
  async ensureDurability(dataSource: DataSource): Promise<string> {
    const [{ synchronous_commit: commit }] = await dataSource.query('SHOW synchronous_commit');
    if (commit === 'off') throw new Error('PostgreSQL synchronous_commit is off: a 201 would not mean durable');
    return `PostgreSQL, synchronous_commit=${commit}`;
  }

  /**
   * Several instances may start at once: a session-level advisory lock lets one of them migrate while the others
   * wait, then find nothing left to do.
   */
  async migrate(dataSource: DataSource): Promise<Migration[]> {
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
}
