// Beside sqlite/ rather than in it: the migrations use it too, and sqlite/ imports the migrations.
/** A statement sent on the connection that holds the transaction. */
export type SqliteQuery = (sql: string) => Promise<unknown>;

/** An open `BEGIN IMMEDIATE` transaction: commit throws (after rolling back) when COMMIT fails; rollback never throws. */
export interface ImmediateTransaction {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/**
 * Takes the file's write lock before the first statement (BEGIN IMMEDIATE), so that another writer, in this process or
 * another, waits for the busy timeout instead of failing halfway. The caller holds the connection's turn until the
 * transaction ends: a COMMIT or ROLLBACK sent after it would end another writer's transaction. A failed COMMIT leaves
 * the transaction open (SQLITE_BUSY), so it is rolled back here.
 */
export async function beginImmediate(query: SqliteQuery): Promise<ImmediateTransaction> {
  await query('BEGIN IMMEDIATE');
  const rollback = async () => void (await query('ROLLBACK').catch(() => undefined));
  return {
    async commit() {
      try {
        await query('COMMIT');
      } catch (error) {
        await rollback();
        throw error;
      }
    },
    rollback,
  };
}

/** Runs `body` in one immediate transaction: committed when it returns, rolled back when it or the COMMIT throws. */
export async function inImmediateTransaction<T>(query: SqliteQuery, body: () => Promise<T>): Promise<T> {
  const transaction = await beginImmediate(query);
  let result: T;
  try {
    result = await body();
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
  await transaction.commit();
  return result;
}
