import { Logger } from '@nestjs/common';
import { Repeating } from '../timing/repeating';

/** What a heartbeat learnt besides the answer itself: whether the server takes writes (undefined: not asked). */
export type BeatAnswer = { writable: boolean } | undefined;

/** One check that a database answers, on a connection of its own; rejects when it does not within the deadline. */
export interface Heartbeat {
  beat(deadlineMs: number): Promise<BeatAnswer>;
  /** Closes its connection, without waiting on a server that may not answer. */
  stop(): void;
}

/** How often the database is asked, and how long an answer may take before it counts as unreachable. */
export interface WatchTiming {
  everyMs: number;
  deadlineMs: number;
}

/** A silent database is known within everyMs + deadlineMs: readiness is promised red within about 2 s (docs/operations.md). */
export const WATCH_TIMING: WatchTiming = { everyMs: 500, deadlineMs: 1_000 };

/**
 * Knows a silent networked database (packets dropped, no reset) within a second or two, not when every request has
 * timed out: a heartbeat unanswered within its deadline marks it unreachable (operations answer 503 at once, the pool
 * is evicted) until one is answered. A database that takes no writes (a standby, a demoted primary) is marked
 * read-only the same way, or by a refused write: writes answer 503 and readiness is red while reads go on.
 */
export class DatabaseWatch {
  private readonly logger = new Logger('Database');
  private readonly beats: Repeating;
  private stopped = false;
  /** False from a heartbeat that went unanswered until one is answered. */
  reachable = true;
  /** False from a read-only answer (a heartbeat's, or a refused write) until a heartbeat finds the database writable. */
  writable = true;

  constructor(
    private readonly heartbeat: Heartbeat,
    private readonly evict: () => void,
    private readonly timing: WatchTiming = WATCH_TIMING,
  ) {
    this.beats = new Repeating(timing.everyMs, () => this.beat());
  }

  start(): void {
    this.beats.start();
  }

  stop(): void {
    this.stopped = true;
    this.beats.stop();
    this.heartbeat.stop();
  }

  private async beat(): Promise<void> {
    try {
      const answer = await this.heartbeat.beat(this.timing.deadlineMs);
      if (this.stopped) return;
      if (!this.reachable) {
        this.reachable = true;
        this.logger.log('Database reachable again; serving');
      }
      if (answer?.writable === false) this.sawReadOnly('a heartbeat found it read-only');
      else if (!this.writable) {
        this.writable = true;
        this.logger.log('Database writable again; serving creates');
      }
    } catch (error) {
      if (this.reachable && !this.stopped) {
        this.reachable = false;
        this.logger.warn(`Database unreachable (${(error as Error).message}); answering 503 at once until it answers again`);
        this.evict();
      }
    }
  }

  /** The database refused a write as read-only (`why`): writes answer 503 until a heartbeat finds it writable. */
  sawReadOnly(why: string): void {
    if (!this.writable || this.stopped) return;
    this.writable = false;
    this.logger.warn(`Database read-only (${why}: a standby, or a primary being demoted); creates answer 503 until it takes writes, reads go on`);
    this.evict();
  }
}
