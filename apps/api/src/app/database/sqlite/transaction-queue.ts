/**
 * Runs multi-statement transactions on SQLite's one writing connection one after another. That connection is shared:
 * were two `BEGIN … COMMIT` sequences to interleave their awaits, the second BEGIN would fail inside the first
 * transaction (or its statements would join it); so would a single statement sent meanwhile.
 */
export class TransactionQueue {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(transaction: () => Promise<T>): Promise<T> {
    const turn = this.last.then(transaction, transaction);
    this.last = turn.catch(() => undefined);
    return turn;
  }

  /** Waits for a turn and resolves to its end, for a transaction whose steps the caller takes one by one. */
  take(): Promise<() => void> {
    return new Promise((started) => void this.run(() => new Promise<void>((end) => started(end))));
  }
}
