interface Waiter<V> {
  resolve: (value: V | undefined) => void;
  reject: (error: unknown) => void;
}

interface Pending<Q, V> {
  query: Q;
  waiters: Array<Waiter<V>>;
}

/**
 * Looks queries up in batches: a query asked for while `maxInFlight` lookups are already running waits, with every
 * other query asked for meanwhile, for one lookup of them all; equal queries (by `keyOf`) are looked up once. Each
 * query costs a trip through the driver (on SQLite a hop to the thread pool and back) that dwarfs reading one more
 * row, so under load one lookup answers many requests; alone, a query is looked up at once. A query only ever joins
 * a lookup that has not started, so it sees everything committed before it was asked; nothing is cached.
 */
export class BatchedLookup<Q, K, V> {
  private waiting = new Map<K, Pending<Q, V>>();
  private inFlight = 0;

  /**
   * @param keyOf what makes two queries the same
   * @param lookup answers the given queries (distinct, at most `maxBatch`) by key; keys without an answer are absent
   */
  constructor(
    private readonly keyOf: (query: Q) => K,
    private readonly lookup: (queries: Q[]) => Promise<Map<K, V>>,
    private readonly maxInFlight: number,
    /** Told how many requests each lookup answered. */
    private readonly answered: (requests: number) => void = () => undefined,
    private readonly maxBatch = 200,
  ) {}

  load(query: Q): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const key = this.keyOf(query);
      const pending = this.waiting.get(key);
      if (pending) pending.waiters.push({ resolve, reject });
      else this.waiting.set(key, { query, waiters: [{ resolve, reject }] });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.size > 0) {
      const batch = this.takeBatch();
      this.inFlight += 1;
      void this.run(batch);
    }
  }

  /**
   * Everything waiting, or its first `maxBatch` queries, leaving the rest in a fresh map. Never emptied key by key:
   * a map that lives as long as the process and shrinks by deletes has its table rebuilt again and again, and under
   * load V8 promoted those tables, with the queries and rows they reached, to the old generation
   * (docs/performance.md, "Checking a change").
   */
  private takeBatch(): Map<K, Pending<Q, V>> {
    const all = this.waiting;
    this.waiting = new Map();
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut; the loop would take them all too
    if (all.size <= this.maxBatch) return all;
    const batch = new Map<K, Pending<Q, V>>();
    for (const [key, pending] of all) (batch.size < this.maxBatch ? batch : this.waiting).set(key, pending);
    return batch;
  }

  private async run(batch: Map<K, Pending<Q, V>>): Promise<void> {
    try {
      const found = await this.lookup([...batch.values()].map((pending) => pending.query));
      let requests = 0;
      for (const [key, { waiters }] of batch) {
        requests += waiters.length;
        for (const waiter of waiters) waiter.resolve(found.get(key));
      }
      this.answered(requests);
    } catch (error) {
      // Those waiting behind a failed lookup fail with it rather than wait out another (a database that hangs
      // would otherwise hold them for a timeout each time round).
      const waiting = this.waiting;
      this.waiting = new Map();
      for (const { waiters } of [...batch.values(), ...waiting.values()]) for (const waiter of waiters) waiter.reject(error);
    } finally {
      this.inFlight -= 1;
      this.dispatch();
    }
  }
}
