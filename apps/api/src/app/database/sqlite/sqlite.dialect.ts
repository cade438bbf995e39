import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, Migration } from 'typeorm';
import type { DatabaseConfig } from '../../config/app-config';
import { DatabaseDialect } from '../database-dialect';
import type { OptionsOf } from '../database-kind';
import { statementSpans } from '../../observability/statement-spans';
import { type MigrationProgress, reportProgress } from '../migrations/migration-progress';
import { completeNameKeys } from '../migrations/complete-name-keys';
import { fillShortNameIndex } from '../migrations/short-name-index';
import { SCHEMA_OPTIONS } from '../schema';
import { spannedDatabase } from './spanned-database';
import { inImmediateTransaction } from '../immediate-transaction';
import { TransactionQueue } from './transaction-queue';

export type SqliteConfig = Extract<DatabaseConfig, { type: 'sqlite' }>;

// PRAGMA synchronous values: 2 is FULL, which syncs the WAL at every commit so that a 201 survives a power cut.
const SYNCHRONOUS_FULL = 2;
/** Pause before asking again for WAL when another connection was switching the file at the same moment. */
const WAL_RETRY_MS = 10;

/** An embedded file in WAL mode, which any number of processes may share. */
export class SqliteDialect extends DatabaseDialect<'sqlite'> {
  readonly kind = 'sqlite';
  /** Every multi-statement transaction of this process's writing connection takes its turn here. */
  readonly transactions = new TransactionQueue();

  constructor(readonly config: SqliteConfig) {
    super();
  }

  async options(): Promise<OptionsOf<'sqlite'>> {
    const { default: sqlite3 } = await import('sqlite3');
    // TypeORM's verbose mode captures a stack trace per statement, which showed in every request's profile.
    const quietSqlite3: typeof sqlite3 = Object.assign(Object.create(sqlite3), { verbose: () => quietSqlite3 });
    // SQLite has no OpenTelemetry instrumentation: when tracing, the statements of this connection are spanned here.
    const startSpan = statementSpans();
    if (startSpan) quietSqlite3.Database = spannedDatabase(sqlite3.Database, startSpan);
    return {
      type: 'sqlite',
      driver: quietSqlite3,
      database: this.config.path,
      ...SCHEMA_OPTIONS,
      // switchToWal instead: TypeORM's switch fails a start beside another process asking at the same moment.
      enableWAL: false,
      // How long a write waits for another writer's lock, in this process or another, before the request gets a 503.
      busyTimeout: this.config.connectTimeoutMs,
    };
  }

  /** WAL with synchronous=FULL, set here and read back. */
  async ensureDurability(dataSource: DataSource): Promise<string> {
    await this.switchToWal(dataSource);
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
   * The write lock, taken before the migrations table is read, serves as SQLite's advisory lock: a second process waits
   * (its busy timeout) instead of running the same migrations, which apply all or none. They change the schema only,
   * which takes the lock briefly; the rows are written afterwards, a batch per transaction, so that processes of an
   * older version sharing the file wait for one batch at most: the short-name index of the pets stored before it
   * (fillShortNameIndex), and the search keys (completeNameKeys), those of the pets stored before and those a process
   * of an older version left out or wrote otherwise.
   */
  async migrate(dataSource: DataSource, progress?: MigrationProgress): Promise<Migration[]> {
    if (progress) reportProgress(dataSource, progress);
    const applied = await inImmediateTransaction((sql) => dataSource.query(sql), () => dataSource.runMigrations({ transaction: 'none' }));
    await fillShortNameIndex(dataSource);
    await completeNameKeys(dataSource);
    return applied;
  }

  /**
   * Switches the file to WAL, which it keeps. Processes asking at the same moment may get SQLITE_BUSY at once, without
   * the busy timeout: this asks again, for as long as that timeout.
   */
  private async switchToWal(dataSource: DataSource): Promise<void> {
    const deadline = Date.now() + this.config.connectTimeoutMs;
    for (;;) {
      try {
        await dataSource.query('PRAGMA journal_mode = WAL');
        return;
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
        await sleep(WAL_RETRY_MS);
      }
    }
  }
}
