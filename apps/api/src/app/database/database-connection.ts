import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable, serviceUnavailable } from './database-failure';
import { ensureDurability } from './durability';
import { migrate } from './migrate';
import { bindNamed } from './named-parameters';
import { SqliteReaders } from './sqlite-readers';

const RETRY_DELAYS_MS = [500, 1_000, 2_000, 5_000];
/** As many as libuv's default thread pool has threads. */
const SQLITE_READERS = 4;

/**
 * Owns the connection to the database. The service starts whether or not the database answers: until it does,
 * readiness is false and operations answer 503, while this keeps trying in the background. Once connected, a
 * database that goes away mid-run is the driver's to reconnect to; each failed operation meanwhile is a 503.
 */
@Injectable()
export class DatabaseConnection implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseConnection.name);
  private retry?: NodeJS.Timeout;
  private stopped = false;
  private readers?: SqliteReaders;
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing?: Promise<void>;
  /** True once connected, durable and migrated. */
  ready = false;

  constructor(private readonly dataSource: DataSource) {}

  /** One attempt before the app listens, so that a healthy start is ready at once; then retries in the background. */
  async onModuleInit(): Promise<void> {
    await this.connect(0);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /**
   * Lets the operations under way finish (a create resolves only once committed), then closes the SQLite readers
   * before the connection that writes: the last connection to close checkpoints the WAL and removes it, which a
   * read-only one cannot do.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopped = true;
      this.ready = false;
      clearTimeout(this.retry);
      await Promise.allSettled(this.inFlight);
      await this.readers?.close();
      if (this.dataSource.isInitialized) await this.dataSource.destroy();
    })();
    return this.closing;
  }

  /** A read-only query with named parameters (`:name`); 503 when the database cannot serve it. */
  read<T>(sql: string, parameters: Record<string, unknown>): Promise<T[]> {
    return this.run(() => {
      const [query, values] = bindNamed(sql, parameters, this.dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite');
      return this.readers ? this.readers.all<T>(query, values) : this.dataSource.query(query, values);
    });
  }

  /** Runs a database operation, answering 503 (not 500) when the database cannot serve it. */
  async run<T>(operation: () => Promise<T>): Promise<T> {
    if (!this.ready) throw serviceUnavailable();
    let running: Promise<T> | undefined;
    try {
      running = operation();
      this.inFlight.add(running);
      return await running;
    } catch (error) {
      throw isDatabaseUnavailable(error) ? serviceUnavailable() : error;
    } finally {
      if (running) this.inFlight.delete(running);
    }
  }

  private async connect(attempt: number): Promise<void> {
    try {
      if (!this.dataSource.isInitialized) await this.dataSource.initialize();
      const durability = await ensureDurability(this.dataSource);
      const applied = await migrate(this.dataSource);
      const { type, database } = this.dataSource.options;
      // An in-memory database exists only inside its one connection.
      if (type === 'sqlite' && database !== ':memory:') {
        this.readers = await SqliteReaders.open(String(database), SQLITE_READERS, this.dataSource.options.busyTimeout ?? 5_000);
      }
      this.ready = true;
      this.logger.log(`Database ready (${durability}); ${applied.length} migration(s) applied`);
    } catch (error) {
      if (this.dataSource.isInitialized) await this.dataSource.destroy().catch(() => undefined);
      if (this.stopped) return;
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];
      this.logger.warn(`Database not ready (${(error as Error).message}); trying again in ${delay} ms`);
      this.retry = setTimeout(() => void this.connect(attempt + 1), delay);
      this.retry.unref();
    }
  }
}
