interface Waiter<V> {
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

/** A read asked for and not started yet, with every request that asked for its key meanwhile. */
interface Pending<V> {
  key: string;
  run: () => Promise<V>;
  waiters: Array<Waiter<V>>;
}

/**
 * Reads that take turns for the database's connections, and share a turn when they are the same. At most `slots` run
 * at once, and one per key: a read asked for while one with its key runs or waits joins the one that waits, so the
 * requests for one page read it once however many arrive; the others are started first come first served. A read
 * never joins one that has started, so it sees everything committed before it was asked; and no read waits for a
 * read of another key to end, only for a free slot, so a slow one holds up only those that share its key. The key
 * must be the whole of what the read answers (for a statement, its text and every value it runs with).
 */
export class SharedReads<V> {
  private readonly waiting = new Map<string, Pending<V>>();
  /** The reads not started yet, in the order their keys were first asked for. */
  private queue: Array<Pending<V>> = [];
  private readonly running = new Set<string>();

  /**
   * @param slots reads running at once: as many as the connections that serve them, so that a read waits here, where
   *   others can join it, rather than in the driver's queue
   * @param answered is told how many requests each read answered
   */
  constructor(
    private readonly slots: number,
    private readonly answered: (requests: number) => void = () => undefined,
  ) {}

  read(key: string, run: () => Promise<V>): Promise<V> {
    return new Promise((resolve, reject) => {
      let pending = this.waiting.get(key);
      if (!pending) {
        pending = { key, run, waiters: [] };
        this.waiting.set(key, pending);
        this.queue.push(pending);
      }
      pending.waiters.push({ resolve, reject });
      this.dispatch();
    });
  }

  /** Starts the oldest reads whose key is not running, while slots are free; the rest keep their places. */
  private dispatch(): void {
    // A shortcut, so that a read queued under load costs no pass over the queue: the loop starts nothing either way.
    // Stryker disable next-line all: equivalent by the loop's own checks
    if (this.running.size >= this.slots || this.queue.length === 0) return;
    const queue = this.queue;
    this.queue = [];
    for (const pending of queue) {
      if (this.running.size < this.slots && !this.running.has(pending.key)) void this.start(pending);
      else this.queue.push(pending);
    }
  }

  private async start({ key, run, waiters }: Pending<V>): Promise<void> {
    this.waiting.delete(key);
    this.running.add(key);
    try {
      const value = await run();
      for (const waiter of waiters) waiter.resolve(value);
      this.answered(waiters.length);
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    } finally {
      this.running.delete(key);
      this.dispatch();
    }
  }
}
