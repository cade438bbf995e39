import type { Pet } from '@petstore/contract';
import type { DataSource } from 'typeorm';
import { toSafeInteger } from '../../database/safe-integer';
import { claimId } from '../idempotency/idempotency-key';
import {
  CLAIM_COLUMN_NAMES,
  CLAIM_KEY_COLUMNS,
  CLAIM_POSTGRES_TYPES,
  CLAIM_REPLACED_COLUMNS,
  CLAIM_SELECT_LIST,
  claimColumnValues,
  type ClaimRow,
} from '../idempotency/idempotency-row';
import type { IdempotentInsert } from '../pet.store';
import type { PendingCreate } from './create-group-commit';
import { type CreateSql, type Statement, writeCreates } from './create-transaction';
import { PET_INSERT_COLUMNS, PET_INSERT_POSTGRES_TYPES, petColumnValues } from './pet-row';

/** `$1::varchar[], $2::bigint[], …`: one array parameter per column. */
const arrays = (types: readonly string[]) => types.map((type, index) => `$${index + 1}::${type}[]`).join(', ');
const PET_COLUMNS = PET_INSERT_COLUMNS.join(', ');

// Each statement takes whole columns as arrays, so one text serves every batch size.
const SQL = {
  // Ids drawn in the order of the batch (PostgreSQL evaluates a volatile select list after ORDER BY), and the CTE,
  // read twice, is computed once: each create gets the id its own row was inserted with, by construction.
  insertPets: `WITH new_pets AS (
                 SELECT nextval(pg_get_serial_sequence('pets', 'id')) AS id, ${PET_COLUMNS}, position
                 FROM unnest(${arrays(PET_INSERT_POSTGRES_TYPES)}) WITH ORDINALITY AS batch (${PET_COLUMNS}, position)
                 ORDER BY position
               ), inserted AS (
                 INSERT INTO pets (id, ${PET_COLUMNS}) SELECT id, ${PET_COLUMNS} FROM new_pets
               )
               SELECT id FROM new_pets ORDER BY position`,
  // A transaction-scoped lock per key, tried without waiting: a concurrent create with the key on another instance
  // sees it taken, and a crash releases it with the transaction. No lock is waited for, so batches cannot deadlock.
  lockClaims: `SELECT pg_try_advisory_xact_lock(hashtextextended(claim, 0)) AS locked
               FROM unnest($1::text[]) WITH ORDINALITY AS batch (claim, position) ORDER BY position`,
  selectClaims: `SELECT ${CLAIM_SELECT_LIST} FROM idempotency_keys
                 WHERE (${CLAIM_KEY_COLUMNS}) IN (SELECT * FROM unnest($1::varchar[], $2::varchar[]))`,
  // An expired key of the same name is replaced: the 24 hours start again from this create.
  upsertClaims: `INSERT INTO idempotency_keys (${CLAIM_COLUMN_NAMES.join(', ')}) SELECT * FROM unnest(${arrays(CLAIM_POSTGRES_TYPES)})
                 ON CONFLICT (${CLAIM_KEY_COLUMNS}) DO UPDATE SET ${CLAIM_REPLACED_COLUMNS.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}`,
};

/**
 * Writes one batch of creates to PostgreSQL in one transaction (one commit, one WAL flush), and answers each create in
 * order. A batch without keys is one statement. Instances sharing the database each write their own batches; whether
 * a create with a key goes ahead is decided in the transaction, under the key's advisory lock, so across instances.
 */
export function writePostgresCreates(dataSource: DataSource, batch: PendingCreate[]): Promise<IdempotentInsert[]> {
  return writeCreates(postgresCreateSql(dataSource), batch);
}

const postgresCreateSql = (dataSource: DataSource): CreateSql => ({
  statement: (sql, parameters) => dataSource.query(sql, parameters),
  transaction: (work) => dataSource.transaction((manager) => work((sql, parameters) => manager.query(sql, parameters))),
  insertPets,
  async keysHeldElsewhere(statement, claims) {
    const locks = (await statement(SQL.lockClaims, [claims.map(claimId)])) as Array<{ locked: boolean }>;
    return new Set(claims.filter((_, index) => !locks[index].locked).map(claimId));
  },
  async selectClaims(statement, claims) {
    return (await statement(SQL.selectClaims, [claims.map(({ holder }) => holder), claims.map(({ key }) => key)])) as ClaimRow[];
  },
  upsertClaims: (statement, rows) => statement(SQL.upsertClaims, claimColumnValues(rows)),
});

/** One multi-row INSERT; the pets in the order of the creates, each with its id. */
async function insertPets(statement: Statement, creates: PendingCreate[]): Promise<Pet[]> {
  const rows = (await statement(SQL.insertPets, petColumnValues(creates.map(({ pet }) => pet)))) as Array<{ id: string }>;
  if (rows.length !== creates.length) throw new Error(`an insert of ${creates.length} pets returned ${rows.length} ids`);
  return creates.map(({ pet }, index) => ({ ...pet, id: toSafeInteger(rows[index].id) }));
}
