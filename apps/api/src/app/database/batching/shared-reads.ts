interface Waiter<V> {
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

/** The read of a key that is running, and those asked for meanwhile, who share the next one. */
interface Turn<V> {
  next?: Array<Waiter<V>>;
}

/**
 * Reads with the same key share one trip to the database; reads with different keys never wait for each other. A read
 * asked for while one with its key is running waits for that one to end, then shares the next with every read of the
 * key asked for meanwhile: it never joins a read that has started, so it sees everything committed before it was
 * asked. The key must be the whole of what the read answers (for a statement, its text and every value it runs with).
 */
export class SharedReads<V> {
  private readonly turns = new Map<string, Turn<V>>();

  /** @param answered is told how many requests each trip to the database answered. */
  constructor(private readonly answered: (requests: number) => void = () => undefined) {}

  read(key: string, run: () => Promise<V>): Promise<V> {
    const turn = this.turns.get(key);
    if (!turn) return this.start(key, run, 1);
    return new Promise((resolve, reject) => (turn.next ??= []).push({ resolve, reject }));
  }

  private async start(key: string, run: () => Promise<V>, requests: number): Promise<V> {
    const turn: Turn<V> = {};
    this.turns.set(key, turn);
    let value: V;
    try {
      value = await run();
    } catch (error) {
      // Those who waited behind a failed read fail with it rather than wait out another (a database that hangs would
      // otherwise hold them for a timeout each time round).
      this.turns.delete(key);
      for (const waiter of turn.next ?? []) waiter.reject(error);
      throw error;
    }
    this.answered(requests);
    const next = turn.next;
    if (next) {
      this.start(key, run, next.length).then(
        (shared) => next.forEach((waiter) => waiter.resolve(shared)),
        (error: unknown) => next.forEach((waiter) => waiter.reject(error)),
      );
    } else {
      this.turns.delete(key);
    }
    return value;
  }
}
