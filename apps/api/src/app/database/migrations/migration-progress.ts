import { Logger } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';

/**
 * A step over this many rows may take minutes on a live database: once one starts, the process stops waiting for the
 * migration before it listens, so that its probes answer (liveness 200, readiness 503 saying what it does) while the
 * step goes on. Below it, a start is ready at once, as a fresh or small database's is.
 */
export const LONG_STEP_ROWS = 10_000;

/** How often a long step says how far it is. */
const LOG_EVERY_MS = 5_000;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * What a migration is doing now, for the log (rows done of rows to do, every few seconds) and for readiness (why the
 * instance is not ready yet). Steps report through progressOf(), since TypeORM hands a migration a QueryRunner only.
 */
export class MigrationProgress {
  private readonly logger = new Logger('Migration');
  private current?: { name: string; total: number; done: number; startedAt: number; loggedAt: number; long: boolean };
  private markLong!: () => void;
  private stopped = false;
  /** Resolves when a step of LONG_STEP_ROWS or more starts: the start need not wait for the migration's end. */
  readonly long = new Promise<void>((resolve) => (this.markLong = resolve));

  /**
   * Starts a step over `total` rows (0 when it does not know). A long one (LONG_STEP_ROWS or more) is logged, from
   * start to end, and keeps the long promise; a short one, such as a few pets keyed during an upgrade, is not.
   */
  begin(name: string, total = 0): void {
    this.assertGoingOn();
    const long = total >= LONG_STEP_ROWS;
    this.current = { name, total, done: 0, startedAt: Date.now(), loggedAt: Date.now(), long };
    if (!long) return;
    this.logger.log(`${name}: ${count(total)} rows to do`);
    this.markLong();
  }

  /** Rows done so far in the current step; logged every few seconds. */
  advance(done: number, total = this.current?.total ?? 0): void {
    this.assertGoingOn();
    const step = this.current;
    if (!step) return;
    Object.assign(step, { done, total });
    if (!step.long || Date.now() - step.loggedAt < LOG_EVERY_MS) return;
    step.loggedAt = Date.now();
    this.logger.log(`${step.name}: ${this.fraction()}`);
  }

  /** Ends the current step, with how long it took. */
  end(): void {
    const step = this.current;
    if (!step) return;
    this.current = undefined;
    if (step.long) this.logger.log(`${step.name}: done in ${((Date.now() - step.startedAt) / 1000).toFixed(1)} s`);
  }

  /**
   * The process stops: the migration ends at its next batch or step (each resumes at the next start); a statement
   * under way, such as an index build, finishes first.
   */
  stop(): void {
    this.stopped = true;
  }

  /** The step under way and how far it is, e.g. "search keys, 120,000 of 1,000,000 rows (12%)"; none between steps. */
  describe(): string | undefined {
    const step = this.current;
    if (!step) return undefined;
    return step.total > 0 ? `${step.name}, ${this.fraction()}` : step.name;
  }

  private assertGoingOn(): void {
    if (this.stopped) throw new Error('The migration was stopped with the process; the next start resumes it');
  }

  private fraction(): string {
    const { done, total } = this.current ?? { done: 0, total: 0 };
    return total > 0 ? `${count(done)} of ${count(total)} rows (${Math.floor((100 * done) / total)}%)` : `${count(done)} rows`;
  }
}

const reporting = new WeakMap<DataSource, MigrationProgress>();

/** Makes steps that run on `dataSource` report to `progress` (until it reports to another). */
export function reportProgress(dataSource: DataSource, progress: MigrationProgress): void {
  reporting.set(dataSource, progress);
}

/** Where a step running on `on` reports: the progress its data source was given, or one that only logs. */
export function progressOf(on: DataSource | QueryRunner): MigrationProgress {
  const dataSource = on instanceof DataSource ? on : on.connection;
  let progress = reporting.get(dataSource);
  if (!progress) reporting.set(dataSource, (progress = new MigrationProgress()));
  return progress;
}
