import { Logger } from '@nestjs/common';
import type { Client, ClientConfig, Pool } from 'pg';
import { DataSource, type Migration, MigrationExecutor } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { DatabaseConfig } from '../../config/app-config';
import { DatabaseDialect } from '../database-dialect';
import type { OptionsOf } from '../database-kind';
import { type Heartbeat, WATCH_TIMING } from '../database-watch';
import { destroyConnection, PostgresHeartbeat } from './postgres-heartbeat';
import { type MigrationProgress, reportProgress } from '../migrations/migration-progress';
import { completeNameKeys } from '../migrations/complete-name-keys';
import { SCHEMA_OPTIONS } from '../schema';

type PostgresConfig = Extract<DatabaseConfig, { type: 'postgres' }>;

// Any fixed number works; it names "petstore migrations" among the advisory locks of the database.
const MIGRATION_LOCK = 7_253_001;

/** Settings of each server session, sent when connecting: a statement, or a transaction left idle, is cut off. */
const SESSION_SETTINGS = (statementTimeoutMs: number) => ({
  statement_timeout: statementTimeoutMs,
  idle_in_transaction_session_timeout: statementTimeoutMs * 2,
});

/**
 * A migration's sessions: no statement timeout, whatever the role's (an index build on a large table outlasts any
 * request's; each step resumes if interrupted). TCP keepalive instead bounds a wait on a server gone silent: the
 * connection fails, and the next attempt resumes.
 */
const MIGRATION_SESSION_SETTINGS = { statement_timeout: 0, idle_in_transaction_session_timeout: 0 };
const MIGRATION_KEEPALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 };

/** A PostgreSQL server, which several instances of the service may share. */
export class PostgresDialect extends DatabaseDialect<'postgres'> {
  readonly kind = 'postgres';
  /** Every connection the pool has opened and not yet closed, so that they can be dropped at once. */
  private readonly pooled = new Set<Client>();
  private driver?: typeof import('pg');

  constructor(readonly config: PostgresConfig) {
    super();
  }

  async options(): Promise<OptionsOf<'postgres'>> {
    const { statementTimeoutMs } = this.config;
    const driver = (this.driver = (await import('pg')).default);
    const pooled = this.pooled;
    // The pool's connections, known one by one: pg-pool makes them with this class.
    class PooledClient extends driver.Client {
      constructor(config?: ClientConfig) {
        super(config);
        pooled.add(this);
        this.once('end', () => pooled.delete(this));
      }
    }
    return {
      type: 'postgres',
      driver,
      url: this.config.url,
      ...SCHEMA_OPTIONS,
      poolSize: this.config.poolSize,
      connectTimeoutMS: this.config.connectTimeoutMs,
      applicationName: 'petstore',
      extra: {
        // Bounded on the server and, should the network hang, on the client: no request waits forever.
        ...SESSION_SETTINGS(statementTimeoutMs),
        query_timeout: statementTimeoutMs + 1_000,
        Client: PooledClient,
      },
    };
  }

  /** `SELECT 1` on a connection apart from the pool, connecting within the heartbeat's deadline. */
  override heartbeat(): Heartbeat | undefined {
    const driver = this.driver;
    if (!driver) return undefined;
    return new PostgresHeartbeat(
      () => new driver.Client({ connectionString: this.config.url, connectionTimeoutMillis: WATCH_TIMING.deadlineMs, application_name: 'petstore-heartbeat' }),
    );
  }

  /**
   * Destroys every pooled connection, in use or idle: on a silent network path they would hang until TCP gives up, and
   * after it heals a retransmission may take seconds. Queries under way fail at once (503); pg-pool removes each
   * connection, and the next request opens a fresh one.
   */
  override evictConnections(): void {
    for (const client of this.pooled) destroyConnection(client);
  }

  /** Waiting for a connection, then its statements: a request gets its 503 by then, whatever the network does. */
  override operationDeadlineMs(): number {
    return this.config.connectTimeoutMs + this.config.statementTimeoutMs;
  }

  /**
   * PgBouncer (and other poolers) refuse connection settings they cannot carry from one server connection to the next:
   * "unsupported startup parameter: statement_timeout". Without them, the client still gives up on a statement 1 s
   * after the timeout; the server-side limits are then the pooler's (`query_timeout`, `idle_transaction_timeout`, see
   * deploy/pgbouncer) or the role's (`ALTER ROLE … SET statement_timeout`).
   */
  override adaptTo(dataSource: DataSource, failure: unknown): string | undefined {
    const extra = dataSource.options.extra as Record<string, unknown>;
    if (!/unsupported startup parameter/i.test((failure as Error)?.message) || !('statement_timeout' in extra)) return undefined;
    for (const setting of Object.keys(SESSION_SETTINGS(0))) delete extra[setting];
    return (
      `The server refused per-connection settings (${(failure as Error).message}): a pooler such as PgBouncer is in between. ` +
      'Connecting without them; statements are still abandoned by the service after DATABASE_STATEMENT_TIMEOUT_MS + 1 s, ' +
      "and the pooler's query_timeout or the role's statement_timeout bounds them on the server."
    );
  }

  /** Its default commit, which waits for the WAL flush; refused if an operator turned synchronous_commit off. */
  async ensureDurability(dataSource: DataSource): Promise<string> {
    const [{ synchronous_commit: commit }] = await dataSource.query('SHOW synchronous_commit');
    if (commit === 'off') throw new Error('PostgreSQL synchronous_commit is off: a 201 would not mean durable');
    return `PostgreSQL, synchronous_commit=${commit}`;
  }

  /** TypeORM's pool, for queries that skip its QueryRunner, and for the pool's gauges; none before it connected. */
  pool(dataSource: DataSource): Pool | undefined {
    return dataSource.isInitialized ? ((dataSource.driver as PostgresDriver).master as Pool | undefined) : undefined;
  }

  /**
   * Several instances may start at once: one transaction takes a transaction-scoped advisory lock, then runs the
   * pending migrations, so one instance migrates while the others wait, then find nothing left to do. Transaction-scoped
   * rather than a session lock, which a pooler in transaction mode (PgBouncer) would leave on whichever server
   * connection took it; and all or nothing, since PostgreSQL's DDL is transactional. A migration that says
   * `transaction = false` (an index built CONCURRENTLY, which no transaction may hold) runs after the ones before it
   * committed, outside the lock, and is safe to run twice; it is recorded under the lock. Last, the search keys that
   * instances of an older version left out or wrote otherwise are written (completeNameKeys). All of it on connections of its own
   * (migrationSource), never bound by the requests' statement timeout.
   */
  async migrate(dataSource: DataSource, progress?: MigrationProgress): Promise<Migration[]> {
    const source = await this.migrationSource(dataSource);
    if (progress) reportProgress(source, progress);
    try {
      const applied = await this.migrateOn(source);
      await completeNameKeys(source);
      return applied;
    } finally {
      await source.destroy();
    }
  }

  /**
   * Two connections (one builds or fills while the other reads its progress) to DATABASE_MIGRATION_URL, or else to
   * DATABASE_URL, without the requests' timeouts. Through a pooler, which refuses those settings, a long step is cut
   * by its query_timeout: said in the log, with the way out.
   */
  private async migrationSource(dataSource: DataSource): Promise<DataSource> {
    const source = new DataSource({
      ...(dataSource.options as OptionsOf<'postgres'>),
      url: this.config.migrationUrl ?? this.config.url,
      poolSize: 2,
      applicationName: 'petstore-migrate',
      extra: { ...MIGRATION_SESSION_SETTINGS, ...MIGRATION_KEEPALIVE },
    });
    await this.connectOnce(source);
    if (!('statement_timeout' in (source.options.extra as object))) {
      new Logger('Migration').warn(
        "Migrating through a pooler, whose query_timeout bounds each step: an index build on a large table may be cut and start again. Set DATABASE_MIGRATION_URL to the PostgreSQL server itself.",
      );
    }
    return source;
  }

  private async migrateOn(dataSource: DataSource): Promise<Migration[]> {
    const applied: Migration[] = [];
    for (;;) {
      const outside = await this.underMigrationLock(dataSource, async (executor) => {
        for (const migration of await executor.getPendingMigrations()) {
          if (migration.instance?.transaction === false) return migration;
          applied.push(await executor.executeMigration(migration));
        }
        return undefined;
      });
      if (!outside) return applied;
      const runner = dataSource.createQueryRunner();
      try {
        await outside.instance?.up(runner);
      } finally {
        await runner.release();
      }
      await this.underMigrationLock(dataSource, async (executor) => {
        const pending = await executor.getPendingMigrations();
        if (pending.some(({ name }) => name === outside.name)) await executor.insertMigration(outside);
      });
      applied.push(outside);
    }
  }

  private async underMigrationLock<T>(dataSource: DataSource, work: (executor: MigrationExecutor) => Promise<T>): Promise<T> {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const result = await work(new MigrationExecutor(dataSource, runner));
      await runner.commitTransaction();
      return result;
    } catch (error) {
      // Nothing to roll back when the transaction never began, or its connection is gone.
      await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

}
