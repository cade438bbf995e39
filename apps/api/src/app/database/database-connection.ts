import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseDialect } from './database-dialect';
import { isDatabaseUnavailable, serviceUnavailable } from './database-failure';

const RETRY_DELAYS_MS = [500, 1_000, 2_000, 5_000];

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
  private readonly closeFirst: Array<() => Promise<void>> = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing?: Promise<void>;
  /** True once connected, durable and migrated. */
  ready = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly dialect: DatabaseDialect,
  ) {}

  /** One attempt before the app listens, so that a healthy start is ready at once; then retries in the background. */
  async onModuleInit(): Promise<void> {
    await this.connect(0);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /**
   * Lets the operations under way finish (a create resolves only once committed), then closes what was opened beside
   * the connection (SQLite's read-only connections) before the connection itself: the last connection to a SQLite file
   * to close checkpoints the WAL and removes it, which a read-only one cannot do.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopped = true;
      this.ready = false;
      clearTimeout(this.retry);
      await Promise.allSettled(this.inFlight);
      await Promise.all(this.closeFirst.map((close) => close()));
      if (this.dataSource.isInitialized) await this.dataSource.destroy();
    })();
    return this.closing;
  }

  /** Registers what must close before the database connection does, once the operations under way are done. */
  beforeClose(close: () => Promise<void>): void {
    this.closeFirst.push(close);
  }

  /** Whether the database answers a trivial query within a second, now (for the metrics; the probe has its own). */
  async answers(): Promise<boolean> {
    if (!this.ready) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 1_000)));
    try {
      return await Promise.race([this.dataSource.query('SELECT 1').then(() => true), timeout]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
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
      const durability = await this.dialect.ensureDurability(this.dataSource);
      const applied = await this.dialect.migrate(this.dataSource);
      this.ready = true;
      this.logger.log(`Database ready (${durability}); ${applied.length} migration(s) applied`);
    } catch (error) {
      if (this.dataSource.isInitialized) await this.dataSource.destroy().catch(() => undefined);
      if (this.stopped) return;
      const adapted = this.dialect.adaptTo(this.dataSource, error);
      if (adapted) {
        this.logger.warn(adapted);
        return this.connect(attempt);
      }
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];
      this.logger.warn(`Database not ready (${(error as Error).message}); trying again in ${delay} ms`);
      this.retry = setTimeout(() => void this.connect(attempt + 1), delay);
      this.retry.unref();
    }
  }
}
