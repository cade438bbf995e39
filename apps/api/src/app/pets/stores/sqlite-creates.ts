import type { Pet } from '@petstore/contract';
import { toSafeInteger } from '../../database/safe-integer';
import type { IdempotentInsert } from '../pet.store';
import { decide } from '../idempotency/claim-decision';
import { CLAIM_COLUMN_NAMES, CLAIM_KEY_COLUMNS, CLAIM_SELECT_LIST, type ClaimRow, claimValues, storedClaim, toStoredClaim } from '../idempotency/idempotency-row';
import { answers, type PendingCreate } from './batched-creates';
import { PET_INSERT_COLUMNS, petValues } from './pet-row';

/** Runs one statement on the connection that writes; an INSERT resolves to the rowid of its last row. */
export type SqliteStatement = (sql: string, parameters: unknown[]) => Promise<unknown>;

const SQL = {
  // One statement for any number of keys: the (holder, key) pairs come as one JSON array.
  storedClaims: `SELECT ${CLAIM_SELECT_LIST} FROM idempotency_keys
                 WHERE (${CLAIM_KEY_COLUMNS}) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))`,
  insertPets: (rows: number) =>
    `INSERT INTO pets (${PET_INSERT_COLUMNS.join(', ')}) VALUES ${Array(rows).fill(`(${PET_INSERT_COLUMNS.map(() => '?').join(', ')})`).join(', ')}`,
  // An expired key of the same name is replaced: the 24 hours start again from this create.
  insertClaims: (rows: number) =>
    `INSERT OR REPLACE INTO idempotency_keys (${CLAIM_COLUMN_NAMES.join(', ')}) VALUES ${Array(rows).fill(`(${CLAIM_COLUMN_NAMES.map(() => '?').join(', ')})`).join(', ')}`,
};

/**
 * Writes one batch of creates to SQLite in one transaction and one fsync, and answers each create in order. A batch
 * without keys is one INSERT. One with keys takes the write lock first (BEGIN IMMEDIATE), so that no other writer, in
 * this process or another sharing the file, can store one of its keys between the look and the write: SQLite admits
 * one writer at a time to the file, so processes cannot both create for one key.
 */
export async function writeSqliteBatch(statement: SqliteStatement, batch: PendingCreate[]): Promise<IdempotentInsert[]> {
  const claims = batch.flatMap(({ claim }) => (claim ? [claim] : []));
  if (claims.length === 0) return answers(batch.map(() => 'create'), await insertPets(statement, batch));

  await statement('BEGIN IMMEDIATE', []);
  try {
    const stored = ((await statement(SQL.storedClaims, [JSON.stringify(claims.map(({ holder, key }) => [holder, key]))])) as ClaimRow[]).map(toStoredClaim);
    const decisions = decide(batch, stored);
    const creates = batch.filter((_, index) => decisions[index] === 'create');
    const pets = creates.length > 0 ? await insertPets(statement, creates) : [];
    const claimed = creates.flatMap(({ claim }, index) => (claim ? [storedClaim(claim, pets[index].id)] : []));
    if (claimed.length > 0) await statement(SQL.insertClaims(claimed.length), claimed.flatMap(claimValues));
    await statement('COMMIT', []);
    return answers(decisions, pets);
  } catch (error) {
    await statement('ROLLBACK', []).catch(() => undefined);
    throw error;
  }
}

/**
 * One multi-row INSERT under the write lock: its rows got consecutive ids in the order they were listed, whichever
 * process wrote them, since no other writer can take an id until the statement's transaction ends.
 */
async function insertPets(statement: SqliteStatement, creates: PendingCreate[]): Promise<Pet[]> {
  const values = creates.flatMap(({ pet }) => petValues(pet));
  const lastId = toSafeInteger((await statement(SQL.insertPets(creates.length), values)) as number);
  return creates.map(({ pet }, index) => ({ ...pet, id: lastId - creates.length + 1 + index }));
}
