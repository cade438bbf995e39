/**
 * Runs multi-statement transactions on SQLite's one writing connection one after another. That connection is shared:
 * were two `BEGIN … COMMIT` sequences to interleave their awaits, the second BEGIN would fail inside the first
 * transaction (or its statements would join it). Single statements need no turn: each is its own transaction.
 */
export class TransactionQueue {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(transaction: () => Promise<T>): Promise<T> {
    const turn = this.last.then(transaction, transaction);
    this.last = turn.catch(() => undefined);
    return turn;
  }
}
