import { type BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { SharedReads } from '../../database/batching/shared-reads';
import { Repeating } from '../../timing/repeating';
import { ThrottledWarning } from '../../timing/throttled-warning';
import { type EventLogBounds, type LoggedEvent, PetEventLog } from '../log/pet-event-log';

/** One open stream, as the feed sees it. */
export interface FeedSubscriber {
  /**
   * Takes the next events, in order of position, each once. Answers false when it can take no more (what it has not
   * sent passed its bound): the feed then lets it go, and it resumes from the last event it sent.
   */
  deliver(events: readonly LoggedEvent[]): boolean;
  /** The feed let it go: it fell too far behind, or the service is stopping. */
  closed(reason: 'behind' | 'stopping'): void;
}

/** What opening a stream after a position comes to. */
export type Opened =
  /** `from`: the position the stream starts after, its events all later. */
  | { kind: 'stream'; from: number; close: () => void }
  /** Events after the position asked for are no longer kept (or were never given): `oldest` is the oldest kept. */
  | { kind: 'reset'; oldest: number };

export interface FeedTiming {
  /** How often the log is read while a stream is open. */
  pollMs: number;
  /** Events read at once, from the log or for one stream's backlog. */
  pageSize: number;
  /** Recent events kept in memory, from which a stream that resumes close behind is served without a read. */
  recent: number;
}

export const FEED_TIMING: FeedTiming = { pollMs: 100, pageSize: 500, recent: 2_000 };

interface Subscription {
  subscriber: FeedSubscriber;
  /** The last position delivered to it. */
  last: number;
  /** Delivered to by every read of the feed; until then it is catching up on its own. */
  live: boolean;
}

/**
 * One reader of the event log per instance, fanned out in memory to every open stream: the database is read by the
 * feed, never once per stream, except for a stream that resumes further behind than the recent events kept here,
 * which reads its own backlog a page at a time until it has caught up. Reads only while a stream is open.
 */
export class EventFeed implements BeforeApplicationShutdown {
  private readonly logger = new Logger(EventFeed.name);
  private readonly failures = new ThrottledWarning(this.logger, 60_000);
  private readonly subscriptions = new Set<Subscription>();
  private readonly polling: Repeating;
  /** The last position the feed has read; undefined while it is not running. */
  private last?: number;
  /** The events read most recently, in order, ending at `last`; contiguous since the feed started. */
  private recent: LoggedEvent[] = [];
  /** The position the recent events start after: a stream after it or later is served from them. */
  private recentAfter = 0;
  private starting?: Promise<number>;
  private stopping = false;
  /**
   * The log's bounds as opening streams read them: those that ask together share one read, never one begun before
   * they asked. On PostgreSQL each read runs the sequencer under its row lock, which a crowd of streams opening at
   * once would otherwise take in turn.
   */
  private readonly boundsReads = new SharedReads<EventLogBounds>(1);

  constructor(
    private readonly log: PetEventLog,
    private readonly timing: FeedTiming = FEED_TIMING,
  ) {
    this.polling = new Repeating(timing.pollMs, () => this.poll());
  }

  /** Open streams, caught up or not. */
  get size(): number {
    return this.subscriptions.size;
  }

  /**
   * Opens a stream after `after` (with none, after the last event there is now): its backlog first, then every event
   * as the feed reads it. Rejects when the database cannot be read; answers a reset when events after `after` are
   * gone.
   */
  async open(after: number | undefined, subscriber: FeedSubscriber): Promise<Opened> {
    if (this.stopping) throw new Error('The event feed is stopping');
    const subscription: Subscription = { subscriber, last: 0, live: false };
    this.subscriptions.add(subscription);
    let from: number;
    try {
      // Not the feed's last, which may be a poll behind: a stream starts after what is committed when it opens.
      const now = after === undefined ? await this.bounds() : undefined;
      from = after ?? (now as EventLogBounds).last;
      if (!this.fromRecent(from)) {
        const { oldest, last } = now ?? (await this.bounds());
        // Kept: every event after `from`, from the oldest on (or, with none kept, the next to come). A position beyond
        // the last one given names another database's events (made anew, or another service's).
        const oldestKept = oldest ?? last + 1;
        if (from > last || from < oldestKept - 1) {
          this.subscriptions.delete(subscription);
          return { kind: 'reset', oldest: oldestKept };
        }
        await this.start();
      }
      subscription.last = from;
      await this.catchUp(subscription);
    } catch (error) {
      this.subscriptions.delete(subscription);
      throw error;
    }
    return { kind: 'stream', from, close: () => this.remove(subscription) };
  }

  /** Ends every stream: they resume on another instance. The next poll, finding none open, stops. */
  beforeApplicationShutdown(): void {
    this.stopping = true;
    for (const subscription of [...this.subscriptions]) this.let(subscription, 'stopping');
  }

  /** Reads the log now rather than at the next poll: this instance has just committed events (a create). */
  wake(): void {
    this.polling.soon();
  }

  private bounds(): Promise<EventLogBounds> {
    // Stryker disable next-line StringLiteral: the one key, whatever its text
    return this.boundsReads.read('bounds', () => this.log.bounds());
  }

  /** The last position read, the feed started (its first read) if it was not running. */
  private async start(): Promise<number> {
    if (this.last !== undefined) return this.last;
    this.starting ??= this.log.bounds().then(({ last }) => {
      this.last = this.recentAfter = last;
      this.recent = [];
      this.polling.start();
      return last;
    });
    try {
      return await this.starting;
    } finally {
      this.starting = undefined;
    }
  }

  /** Whether the recent events hold everything after `position`, to the last read. */
  private fromRecent(position: number): boolean {
    return this.last !== undefined && position >= this.recentAfter && position <= this.last;
  }

  /**
   * Brings a stream from its position to the feed's: from the recent events when they reach back far enough, else
   * from the log a page at a time. Joins the feed in the same turn of the event loop as its last delivery, so that
   * no read of the feed falls between.
   */
  private async catchUp(subscription: Subscription): Promise<void> {
    for (;;) {
      if (this.fromRecent(subscription.last)) {
        subscription.live = true;
        this.deliver(subscription, this.recent);
        return;
      }
      const page = await this.log.readAfter(subscription.last, this.timing.pageSize);
      // Closed meanwhile (its client went away, or the service is stopping).
      if (!this.subscriptions.has(subscription)) return;
      if (page.length === 0) {
        // Ahead of the feed, which has not read this far yet: it delivers what comes next.
        subscription.live = true;
        return;
      }
      this.deliver(subscription, page);
    }
  }

  private async poll(): Promise<void> {
    if (this.subscriptions.size === 0) return this.pause();
    try {
      for (;;) {
        const events = await this.log.readAfter(this.last as number, this.timing.pageSize);
        if (events.length === 0) return;
        this.remember(events);
        for (const subscription of this.subscriptions) if (subscription.live) this.deliver(subscription, events);
        if (events.length < this.timing.pageSize) return;
      }
    } catch (error) {
      this.failures.warn(`Events not read; streams wait for the database: ${(error as Error).message}`);
    }
  }

  private remember(events: LoggedEvent[]): void {
    this.last = (events.at(-1) as LoggedEvent).position;
    this.recent.push(...events);
    const excess = this.recent.length - this.timing.recent;
    // The events beyond the bound are dropped for memory only, which no answer shows: a stream resuming before the
    // rest is read from the log, which answers it the same.
    // Stryker disable next-line ConditionalExpression,BlockStatement: memory only
    if (excess > 0) {
      this.recentAfter = this.recent[excess - 1].position;
      // Stryker disable next-line MethodExpression: memory only
      this.recent = this.recent.slice(excess);
    }
  }

  /** Delivers the events after the stream's position; lets it go when it can take no more. */
  private deliver(subscription: Subscription, events: readonly LoggedEvent[]): void {
    const unseen = events.filter(({ position }) => position > subscription.last);
    if (unseen.length === 0) return;
    subscription.last = (unseen.at(-1) as LoggedEvent).position;
    if (!subscription.subscriber.deliver(unseen)) this.let(subscription, 'behind');
  }

  private let(subscription: Subscription, reason: 'behind' | 'stopping'): void {
    if (!this.subscriptions.delete(subscription)) return;
    subscription.subscriber.closed(reason);
  }

  private remove(subscription: Subscription): void {
    this.subscriptions.delete(subscription);
  }

  /** No stream open: the feed stops reading, and forgets where it was (the log moves on meanwhile). */
  private pause(): void {
    // Stryker disable next-line CallExpression: an idle timer, whose next poll would find none open again
    this.polling.stop();
    this.last = undefined;
    this.recent = [];
  }
}
