import type { Pet } from '@petstore/contract';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { completeNameKeys } from '../../database/migrations/complete-name-keys';
import type { PostgresDialect } from '../../database/postgres/postgres.dialect';
import { toSafeInteger } from '../../database/safe-integer';
import { claimId } from '../idempotency/idempotency-key';
import {
  CLAIM_COLUMN,
  CLAIM_COLUMN_NAMES,
  CLAIM_KEY_COLUMNS,
  CLAIM_POSTGRES_TYPES,
  CLAIM_REPLACED_COLUMNS,
  CLAIM_SELECT_LIST,
  claimColumnValues,
  type ClaimRow,
} from '../idempotency/idempotency-row';
import type { PetToCreate } from '../pet-store-requests';
import type { PageDialect } from './pet-page-sql';
import { NAME_KEY_COLUMN, PET_INSERT_COLUMNS, PET_INSERT_POSTGRES_TYPES, petColumnValues, petSelectList, type PetRow, toPet } from './pet-row';
import type { PetSql, PetWrite, Statement } from './pet-sql';

/** LIKE's own characters in a key, escaped with LIKE's default escape, the backslash. */
const likeLiteral = (key: string) => key.replace(/[\\%_]/g, '\\$&');

/**
 * A name search of three characters or more is a LIKE the pg_trgm GIN index on the key serves; the planner weighs it
 * against walking the primary key in id order, which wins when many names match. A shorter one is a containment the
 * GIN index of the key's one- and two-character pieces serves (pet_name_pieces), read after a walk of the first 5,000
 * pets: the planner's estimate of a piece it has not sampled is a flat 0.5% of the table, which made it walk id order
 * through every row for a piece no name holds (docs/performance.md, "Searches shorter than a trigram").
 */
export const POSTGRES_PAGES: PageDialect = {
  // Stryker disable next-line StringLiteral: every page statement reads the one table, whose columns need no alias
  selectList: petSelectList('p'),
  wrap: (select) => select,
  trigramName: { from: 'pets p', condition: `p.${NAME_KEY_COLUMN} LIKE ?`, idColumn: 'p.id', values: (key) => [`%${likeLiteral(key)}%`] },
  shortName: {
    condition: `pet_name_pieces(p.${NAME_KEY_COLUMN}) @> ARRAY[?::text]`,
    values: (key) => [key],
    walkFirst: 5_000,
    // Stryker disable next-line StringLiteral: read after a walk, whose statement names its own table and order
    from: 'pets p', idColumn: 'p.id',
  },
  scannedName: `strpos(p.${NAME_KEY_COLUMN}, ?) > 0`,
  numbered: true,
};

/** `$1::varchar[], $2::bigint[], …`: one array parameter per column. */
const arrays = (types: readonly string[]) => types.map((type, index) => `$${index + 1}::${type}[]`).join(', ');
const INSERTED = PET_INSERT_COLUMNS.join(', ');

// Each write statement takes whole columns as arrays, so one text serves every batch size.
const SQL = {
  // One statement for any number of ids, from an array parameter.
  byIds: `SELECT ${petSelectList()} FROM pets WHERE id = ANY($1)`,
  // Ids drawn in the order of the batch (PostgreSQL evaluates a volatile select list after ORDER BY), and the CTE,
  // read twice, is computed once: each pet gets the id its own row was inserted with, by construction.
  insertPets: `WITH new_pets AS (
                 SELECT nextval(pg_get_serial_sequence('pets', 'id')) AS id, ${INSERTED}, position
                 FROM unnest(${arrays(PET_INSERT_POSTGRES_TYPES)}) WITH ORDINALITY AS batch (${INSERTED}, position)
                 ORDER BY position
               ), inserted AS (
                 INSERT INTO pets (id, ${INSERTED}) SELECT id, ${INSERTED} FROM new_pets
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
  purgeClaims: `DELETE FROM idempotency_keys WHERE ${CLAIM_COLUMN.createdAt} <= $1`,
};

/**
 * Pets in PostgreSQL, which several instances may share. A batch of creates is one transaction (one commit, one WAL
 * flush), its Idempotency-Keys decided under transaction-scoped advisory locks, so across instances; a batch without
 * keys is one statement.
 */
export function postgresPetSql(dataSource: DataSource, dialect: PostgresDialect): PetSql {
  /**
   * On TypeORM's own pool (same connections, pool size and timeouts) but without a QueryRunner and result wrapping per
   * query, which cost reads by id part of their throughput (docs/performance.md, "Where the time of a read by id goes").
   */
  const select = async (sql: string, parameters: unknown[]): Promise<Pet[]> => {
    // Reads run only once the database connected (DatabaseConnection), so the pool is there.
    const pool = dialect.pool(dataSource) as Pool;
    return (await pool.query<PetRow>(sql, parameters)).rows.map(toPet);
  };
  const alone: PetWrite = { statement: (sql, parameters) => dataSource.query(sql, parameters), commit: async () => undefined, rollback: async () => undefined };

  return {
    readConnections: dialect.config.poolSize,
    pages: POSTGRES_PAGES,
    byIds: (ids) => select(SQL.byIds, [ids]),
    page: ({ sql, values }) => select(sql, values),
    async beginWrite(isolated) {
      if (!isolated) return alone;
      const runner = dataSource.createQueryRunner();
      try {
        await runner.startTransaction();
      } catch (error) {
        await runner.release();
        throw error;
      }
      const rollback = async () => {
        await runner.rollbackTransaction().catch(() => undefined);
        await runner.release();
      };
      return {
        statement: (sql, parameters) => runner.query(sql, parameters),
        async commit() {
          try {
            await runner.commitTransaction();
          } catch (error) {
            await rollback();
            throw error;
          }
          await runner.release();
        },
        rollback,
      };
    },
    insertPets,
    async keysHeldElsewhere(statement, claims) {
      const locks = (await statement(SQL.lockClaims, [claims.map(claimId)])) as Array<{ locked: boolean }>;
      return new Set(claims.filter((_, index) => !locks[index].locked).map(claimId));
    },
    async selectClaims(statement, claims) {
      return (await statement(SQL.selectClaims, [claims.map(({ holder }) => holder), claims.map(({ key }) => key)])) as ClaimRow[];
    },
    upsertClaims: (statement, rows) => statement(SQL.upsertClaims, claimColumnValues(rows)),
    purgeClaims: (before) => dataSource.query(SQL.purgeClaims, [before]),
    fillNameKeys: () => completeNameKeys(dataSource),
  };
}

/** One multi-row INSERT; the pets in their order, each with its id. */
async function insertPets(statement: Statement, pets: PetToCreate[]): Promise<Pet[]> {
  const rows = (await statement(SQL.insertPets, petColumnValues(pets))) as Array<{ id: string }>;
  if (rows.length !== pets.length) throw new Error(`an insert of ${pets.length} pets returned ${rows.length} ids`);
  return pets.map((pet, index) => ({ ...pet, id: toSafeInteger(rows[index].id) }));
}
