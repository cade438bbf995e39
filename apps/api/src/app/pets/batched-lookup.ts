interface Waiter<V> {
  resolve: (value: V | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Looks keys up in batches: a key asked for while `maxInFlight` lookups are already running waits, with every
 * other key asked for meanwhile, for one lookup of them all. Each query costs a trip through the driver (on SQLite a
 * hop to the thread pool and back) that dwarfs reading one more row, so under load one query answers many requests;
 * alone, a key is looked up at once. Every answer still comes from the database, never from a copy.
 */
export class BatchedLookup<K, V> {
  private waiting = new Map<K, Array<Waiter<V>>>();
  private inFlight = 0;

  /**
   * @param lookup finds the values of the given keys (distinct, at most `maxBatch`); absent keys are left out.
   */
  constructor(
    private readonly lookup: (keys: K[]) => Promise<Map<K, V>>,
    private readonly maxInFlight: number,
    private readonly maxBatch = 200,
  ) {}

  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.size > 0) {
      const batch = new Map<K, Array<Waiter<V>>>();
      for (const [key, waiters] of this.waiting) {
        if (batch.size === this.maxBatch) break;
        batch.set(key, waiters);
      }
      for (const key of batch.keys()) this.waiting.delete(key);
      this.inFlight += 1;
      void this.run(batch);
    }
  }

  private async run(batch: Map<K, Array<Waiter<V>>>): Promise<void> {
    try {
      const found = await this.lookup([...batch.keys()]);
      for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(key));
    } catch (error) {
      // Those waiting behind a failed lookup fail with it rather than wait out another (a database that hangs
      // would otherwise hold them for a timeout each time round).
      const waiting = this.waiting;
      this.waiting = new Map();
      for (const waiters of [...batch.values(), ...waiting.values()]) for (const waiter of waiters) waiter.reject(error);
    } finally {
      this.inFlight -= 1;
      this.dispatch();
    }
  }
}
