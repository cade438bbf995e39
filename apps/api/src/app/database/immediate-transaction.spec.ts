import { beginImmediate, inImmediateTransaction } from './immediate-transaction';

/** A connection that logs each statement and fails those named in `failing`. */
function connection(...failing: string[]) {
  const log: string[] = [];
  const query = async (sql: string) => {
    log.push(sql);
    if (failing.includes(sql)) throw new Error(`${sql} failed`);
  };
  return { log, query };
}

describe(inImmediateTransaction.name, () => {
  it('takes the write lock first, runs the body and commits, answering what the body answered', async () => {
    const { log, query } = connection();
    await expect(inImmediateTransaction(query, async () => (log.push('body'), 7))).resolves.toBe(7);
    expect(log).toEqual(['BEGIN IMMEDIATE', 'body', 'COMMIT']);
  });

  it("rolls back when the body throws, and throws the body's error even when the rollback fails", async () => {
    const { log, query } = connection('ROLLBACK');
    await expect(inImmediateTransaction(query, () => Promise.reject(new Error('constraint')))).rejects.toThrow('constraint');
    expect(log).toEqual(['BEGIN IMMEDIATE', 'ROLLBACK']);
  });

  it('rolls back when COMMIT fails (SQLITE_BUSY leaves the transaction open) and throws its error', async () => {
    const { log, query } = connection('COMMIT');
    await expect(inImmediateTransaction(query, async () => undefined)).rejects.toThrow('COMMIT failed');
    expect(log).toEqual(['BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK']);
  });

  it('runs no body and sends nothing more when the lock cannot be taken', async () => {
    const { log, query } = connection('BEGIN IMMEDIATE');
    const body = jest.fn();
    await expect(inImmediateTransaction(query, body)).rejects.toThrow('BEGIN IMMEDIATE failed');
    expect(body).not.toHaveBeenCalled();
    expect(log).toEqual(['BEGIN IMMEDIATE']);
  });
});

describe(beginImmediate.name, () => {
  it('leaves the end to the caller: a rollback that fails does not throw', async () => {
    const { log, query } = connection('ROLLBACK');
    const transaction = await beginImmediate(query);
    expect(log).toEqual(['BEGIN IMMEDIATE']);
    await expect(transaction.rollback()).resolves.toBeUndefined();
    expect(log).toEqual(['BEGIN IMMEDIATE', 'ROLLBACK']);
  });
});
