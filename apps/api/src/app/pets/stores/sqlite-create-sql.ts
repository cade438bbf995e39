import type { Pet } from '@petstore/contract';
import { toSafeInteger } from '../../database/safe-integer';
import { CLAIM_COLUMN_NAMES, CLAIM_KEY_COLUMNS, CLAIM_SELECT_LIST, type ClaimRow, claimValues } from '../idempotency/idempotency-row';
import type { IdempotentInsert } from '../pet.store';
import type { PendingCreate } from './create-group-commit';
import { type CreateSql, type Statement, writeCreates } from './create-transaction';
import { PET_INSERT_COLUMNS, petValues } from './pet-row';

/** `VALUES (?, ?, …), …`: `rows` rows of `columns` parameters each. */
const values = (rows: number, columns: number) => `VALUES ${Array(rows).fill(`(${Array(columns).fill('?').join(', ')})`).join(', ')}`;

const SQL = {
  // One statement for any number of keys: the (holder, key) pairs come as one JSON array.
  selectClaims: `SELECT ${CLAIM_SELECT_LIST} FROM idempotency_keys
                 WHERE (${CLAIM_KEY_COLUMNS}) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))`,
  insertPets: (rows: number) => `INSERT INTO pets (${PET_INSERT_COLUMNS.join(', ')}) ${values(rows, PET_INSERT_COLUMNS.length)}`,
  // An expired key of the same name is replaced: the 24 hours start again from this create.
  upsertClaims: (rows: number) => `INSERT OR REPLACE INTO idempotency_keys (${CLAIM_COLUMN_NAMES.join(', ')}) ${values(rows, CLAIM_COLUMN_NAMES.length)}`,
};

/**
 * Writes one batch of creates to SQLite in one transaction and one fsync, and answers each create in order. A batch
 * without keys is one INSERT. One with keys takes the write lock first (BEGIN IMMEDIATE), so that no other writer, in
 * this process or another sharing the file, can store one of its keys between the look and the write: SQLite admits
 * one writer at a time to the file, so processes cannot both create for one key, and no key is held elsewhere.
 */
export function writeSqliteCreates(statement: Statement, batch: PendingCreate[]): Promise<IdempotentInsert[]> {
  return writeCreates(sqliteCreateSql(statement), batch);
}

const sqliteCreateSql = (statement: Statement): CreateSql => ({
  statement,
  async transaction(work) {
    await statement('BEGIN IMMEDIATE', []);
    try {
      const result = await work(statement);
      await statement('COMMIT', []);
      return result;
    } catch (error) {
      await statement('ROLLBACK', []).catch(() => undefined);
      throw error;
    }
  },
  insertPets,
  async selectClaims(run, claims) {
    return (await run(SQL.selectClaims, [JSON.stringify(claims.map(({ holder, key }) => [holder, key]))])) as ClaimRow[];
  },
  upsertClaims: (run, rows) => run(SQL.upsertClaims(rows.length), rows.flatMap(claimValues)),
});

/**
 * One multi-row INSERT under the write lock: its rows got consecutive ids in the order they were listed, whichever
 * process wrote them, since no other writer can take an id until the statement's transaction ends.
 */
async function insertPets(statement: Statement, creates: PendingCreate[]): Promise<Pet[]> {
  const lastId = toSafeInteger(await statement(SQL.insertPets(creates.length), creates.flatMap(({ pet }) => petValues(pet))));
  return creates.map(({ pet }, index) => ({ ...pet, id: lastId - creates.length + 1 + index }));
}
