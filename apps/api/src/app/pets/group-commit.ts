interface Waiting<T> {
  item: T;
  resolve: (id: number) => void;
  reject: (error: unknown) => void;
}

/** Rows per statement: SQLite allows 32,766 bound parameters, and three go to each pet. */
const MAX_BATCH = 1_000;

/**
 * Commits creates that arrive together as one statement: one transaction and one fsync for all of them, instead
 * of one each. Every caller's promise still resolves only once its row is committed and synced, so a 201 keeps
 * meaning durable. While a batch is being written, newcomers gather for the next one.
 */
export class GroupCommit<T> {
  private waiting: Array<Waiting<T>> = [];
  private writing = false;

  /** @param write stores the items in one statement, in order, and resolves to the id given to the last one. */
  constructor(private readonly write: (items: T[]) => Promise<number>) {}

  /** Resolves to the item's id once it is durable. */
  add(item: T): Promise<number> {
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
        const lastId = await this.write(batch.map((entry) => entry.item));
        // One statement, one writer: the rows got consecutive ids, in the order they were listed.
        batch.forEach((entry, index) => entry.resolve(lastId - batch.length + 1 + index));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.writing = false;
  }
}
