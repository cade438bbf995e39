import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Repeating } from './repeating';
import { ThrottledWarning } from './throttled-warning';

export interface Period {
  everyMs: number;
  /** The first run's delay from bootstrap; by default `everyMs`. */
  firstAfterMs?: number;
}

/** The purges' period: hourly, the first a minute after the start, when the database has connected. */
export const HOURLY_PURGE: Period = { everyMs: 60 * 60 * 1000, firstAfterMs: 60 * 1000 };

/**
 * A task the app runs for as long as it lives, from bootstrap to shutdown, one run at a time (Repeating). A run that
 * fails is logged, at most once a period, in the words of `failure`: a database away fails every run alike.
 */
export abstract class PeriodicTask implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly repeating: Repeating;
  private readonly failures: ThrottledWarning;

  protected constructor(
    name: string,
    { everyMs, firstAfterMs }: Period,
    private readonly failure: string,
  ) {
    this.repeating = new Repeating(everyMs, () => this.runOnce(), firstAfterMs);
    this.failures = new ThrottledWarning(new Logger(name), everyMs);
  }

  onApplicationBootstrap(): void {
    this.repeating.start();
  }

  onApplicationShutdown(): void {
    this.repeating.stop();
  }

  /** One run now, as if at `now`; a failure is logged, not thrown. */
  async runOnce(now = Date.now()): Promise<void> {
    try {
      await this.run(now);
    } catch (error) {
      this.failures.warn(`${this.failure}: ${(error as Error).message}`);
    }
  }

  protected abstract run(now: number): Promise<void>;
}
