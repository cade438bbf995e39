import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { DatabaseDialect } from './database-dialect';
import { databaseReadOnly, isDatabaseUnavailable, isReadOnlyDatabase, serviceUnavailable } from './database-failure';
import { DatabaseWatch } from './database-watch';
import { MigrationProgress } from './migrations/migration-progress';
import { withDeadline } from '../timing/deadline';

const RETRY_DELAYS_MS = [500, 1_000, 2_000, 5_000];

/**
 * Owns the connection to the database. The service starts whether or not the database answers: until it does,
 * operations answer 503 and readiness is false while this keeps trying. Every failed operation is a 503, none outlives
 * the dialect's deadline, and a networked database is watched (DatabaseWatch) so that a silent one fails fast.
 */
export class DatabaseConnection implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseConnection.name);
  private retry?: NodeJS.Timeout;
  private stopped = false;
  private readonly closeFirst: Array<() => Promise<void>> = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing?: Promise<void>;
  private watch?: DatabaseWatch;
  private readonly deadlineMs?: number;
  private readonly progress = new MigrationProgress();
  /** The last migration begun: a stop waits for it to end (at its next batch or step, see MigrationProgress.stop). */
  private migration?: Promise<unknown>;
  /** True once connected, durable and migrated. */
  ready = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly dialect: DatabaseDialect,
  ) {
    this.deadlineMs = dialect.operationDeadlineMs();
  }

  /** Ready, and not known to be silent now: what a read needs. */
  get serving(): boolean {
    return this.ready && (this.watch?.reachable ?? true);
  }

  /** Serving, and not known to refuse writes now: what readiness reports, and what a write needs. */
  get writable(): boolean {
    return this.serving && (this.watch?.writable ?? true);
  }

  /**
   * What the instance does while it is not ready yet: the migration's step under way and how far it is, e.g. "Search
   * keys of the pets stored without one, 120,000 of 1,000,000 rows (12%)"; none when it is not migrating.
   */
  get migrating(): string | undefined {
    return this.ready ? undefined : this.progress.describe();
  }

  /**
   * One attempt before the app listens, so that a healthy start is ready at once; then retries in the background. A
   * migration with a long step to do (migration-progress.ts) goes on after the app listens: its probes answer meanwhile
   * (live, and not ready saying why), where an orchestrator would otherwise kill a process that never listened.
   */
  async onModuleInit(): Promise<void> {
    await Promise.race([this.connect(0), this.progress.long]);
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
      this.progress.stop();
      await this.migration?.catch(() => undefined);
      this.watch?.stop();
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

  /**
   * Whether the database answers a trivial query within a second, now (for the metrics). A watched database has just
   * been asked by the heartbeat: its verdict, rather than one more query through the pool.
   */
  async answers(): Promise<boolean> {
    if (!this.serving) return false;
    return this.watch ? true : this.ping();
  }

  /** `SELECT 1` through the pool within a second: whether a request would get a connection and an answer now. */
  async ping(): Promise<boolean> {
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

  /** The 503, at once, while the database cannot serve: for work that would otherwise queue before it reaches run(). */
  assertServing(): void {
    if (!this.serving) throw serviceUnavailable();
  }

  /**
   * Runs a database operation, answering 503 (not 500) when the database cannot serve it: at once while it is known to
   * be silent, and at the dialect's deadline at the latest. An operation past its deadline may still finish (a create
   * may commit): its request has had its 503, which a retry with the same Idempotency-Key resolves.
   */
  async run<T>(operation: () => Promise<T>): Promise<T> {
    this.assertServing();
    return this.running(operation);
  }

  /** run(), for an operation that writes: a 503 at once while the database is known to take no writes. */
  async runWrite<T>(operation: () => Promise<T>): Promise<T> {
    this.assertServing();
    if (!this.writable) throw databaseReadOnly();
    return this.running(operation);
  }

  private async running<T>(operation: () => Promise<T>): Promise<T> {
    try {
      const running = operation();
      // Until it settles, even past its deadline: closing waits for it, as it may still commit.
      this.inFlight.add(running);
      const settled = () => this.inFlight.delete(running);
      running.then(settled, settled);
      return await (this.deadlineMs === undefined ? running : withDeadline(running, this.deadlineMs, serviceUnavailable));
    } catch (error) {
      if (isReadOnlyDatabase(error)) {
        this.watch?.sawReadOnly('a write was refused');
        throw databaseReadOnly();
      }
      throw isDatabaseUnavailable(error) ? serviceUnavailable() : error;
    }
  }

  private startWatching(): void {
    const heartbeat = this.dialect.heartbeat();
    if (!heartbeat || this.watch) return;
    this.watch = new DatabaseWatch(heartbeat, () => this.dialect.evictConnections());
    this.watch.start();
  }

  private async connect(attempt: number): Promise<void> {
    try {
      if (!this.dataSource.isInitialized) await this.dataSource.initialize();
      const durability = await this.dialect.ensureDurability(this.dataSource);
      const migration = (this.migration = this.dialect.migrate(this.dataSource, this.progress));
      const applied = await migration;
      this.ready = true;
      this.startWatching();
      this.logger.log(`Database ready (${durability}); ${applied.length} migration(s) applied`);
    } catch (error) {
      // A stop closes the connection itself (close()), once the migration under way has ended.
      if (this.stopped) return;
      if (this.dataSource.isInitialized) await this.dataSource.destroy().catch(() => undefined);
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
