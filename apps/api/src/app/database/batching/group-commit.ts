interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/** Items per write: a batch's statements must stay within SQLite's 32,766 bound parameters, a few per create. */
const MAX_BATCH = 1_000;

/**
 * Commits items that arrive together in one write (creates of pets, records of webhook attempts): one transaction and
 * one fsync for all of them, instead of one each. Every caller's promise still resolves only once its write is
 * committed and synced, so a 201 keeps meaning durable. While a batch is being written, newcomers gather for the next.
 */
export class GroupCommit<T, R> {
  private waiting: Array<Waiting<T, R>> = [];
  private writing = false;

  /** @param write commits the items together and resolves to one result per item, in their order. */
  constructor(private readonly write: (items: T[]) => Promise<R[]>) {}

  /** Items gathered for the next write while one is being written. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Resolves to the item's result once its batch is durable. */
  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      try {
        const results = await this.write(batch.map((entry) => entry.item));
        if (results.length !== batch.length) throw new Error(`a write of ${batch.length} items gave ${results.length} results`);
        batch.forEach((entry, index) => entry.resolve(results[index]));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.writing = false;
  }
}
