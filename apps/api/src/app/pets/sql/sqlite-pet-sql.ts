import type { Pet } from '@petstore/contract';
import type { DataSource } from 'typeorm';
import type { DatabaseConnection } from '../../database/database-connection';
import { completeNameKeys } from '../../database/migrations/complete-name-keys';
import { shortPieceToken } from '../../database/migrations/short-name-index';
import { toSafeInteger } from '../../database/safe-integer';
import { beginImmediate } from '../../database/immediate-transaction';
import type { SqliteDialect } from '../../database/sqlite/sqlite.dialect';
import { SqliteReaders } from '../../database/sqlite/sqlite-readers';
import { CLAIM_COLUMN, CLAIM_COLUMN_NAMES, CLAIM_KEY_COLUMNS, CLAIM_SELECT_LIST, type ClaimRow, claimValues } from '../idempotency/idempotency-row';
import { type PageDialect, type PageStatement, statementFor } from './pet-page-sql';
import { NAME_KEY_COLUMN, PET_COLUMN_NAMES, PET_INSERT_COLUMNS, petValues, valuesToPet } from './pet-row';
import type { PetSql, Statement } from './pet-sql';

/** As many as libuv's default thread pool has threads. */
const READERS = 4;

// Each lookup answers one row holding its pets as one JSON array of their columns' values: sqlite3 builds a
// JavaScript object per row and column through N-API, which cost more than JSON.parse of the same pets
// (docs/performance.md, "Where the time of a read by id goes").
const AS_JSON = `json_group_array(json_array(${PET_COLUMN_NAMES.join(', ')}) ORDER BY id) AS pets`;

/**
 * A name search reads an FTS5 table in rowid order, which is id order, and joins each match to its pet: the trigram
 * table `pets_name` for three characters or more, the table of one- and two-character pieces `pets_name_short` for
 * fewer (both kept by triggers on `pets`, in the write's transaction). CROSS JOIN keeps that order of the loops, where
 * the planner would otherwise walk the status index and look up each pet's name.
 */
export const SQLITE_PAGES: PageDialect = {
  selectList: 'p.*',
  wrap: (select) => `SELECT ${AS_JSON} FROM (${select})`,
  trigramName: {
    from: 'pets_name f CROSS JOIN pets p ON p.id = f.rowid',
    condition: 'pets_name MATCH ?',
    idColumn: 'f.rowid',
    // One FTS5 phrase: the key in double quotes, a quote doubled, every character taken as written.
    values: (key) => [`"${key.replace(/"/g, '""')}"`],
  },
  shortName: {
    from: 'pets_name_short f CROSS JOIN pets p ON p.id = f.rowid',
    condition: 'pets_name_short MATCH ?',
    idColumn: 'f.rowid',
    values: (key) => [shortPieceToken(key)],
  },
  scannedName: `instr(p.${NAME_KEY_COLUMN}, ?) > 0`,
  numbered: false,
  // The FTS5 table reads every doclist of the name's trigrams when it opens, however few pets the category has; a
  // small category is read whole at worst, whatever the table's size (docs/performance.md, "Finding pets by name").
  smallCategory: { from: 'pets p INDEXED BY pets_category_id_id', most: 5_000 },
};

/** `VALUES (?, ?, …), …`: `rows` rows of `columns` parameters each. */
const values = (rows: number, columns: number) => `VALUES ${Array(rows).fill(`(${Array(columns).fill('?').join(', ')})`).join(', ')}`;

const SQL = {
  // One statement for any number of ids, read from a JSON array: one prepared statement serves every batch size.
  byIds: `SELECT ${AS_JSON} FROM pets WHERE id IN (SELECT value FROM json_each(?))`,
  insertPets: (rows: number) => `INSERT INTO pets (${PET_INSERT_COLUMNS.join(', ')}) ${values(rows, PET_INSERT_COLUMNS.length)}`,
  // One statement for any number of keys: the (holder, key) pairs come as one JSON array.
  selectClaims: `SELECT ${CLAIM_SELECT_LIST} FROM idempotency_keys
                 WHERE (${CLAIM_KEY_COLUMNS}) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))`,
  // An expired key of the same name is replaced: the 24 hours start again from this create.
  upsertClaims: (rows: number) => `INSERT OR REPLACE INTO idempotency_keys (${CLAIM_COLUMN_NAMES.join(', ')}) ${values(rows, CLAIM_COLUMN_NAMES.length)}`,
  purgeClaims: `DELETE FROM idempotency_keys WHERE ${CLAIM_COLUMN.createdAt} <= ?`,
};

/**
 * Pets in a SQLite file, which any number of processes may share. TypeORM's one connection writes, each write in its
 * turn among the connection's transactions (the webhook outbox's share it). A write of a batch with keys takes the
 * file's write lock first (BEGIN IMMEDIATE): SQLite admits one writer at a time, so no other writer, in this process or
 * another, can store one of its keys between the look and the write, and no key is ever held elsewhere. Reads go to a
 * few read-only connections with prepared statements, which WAL lets run beside the writer on the thread pool.
 */
export function sqlitePetSql(dataSource: DataSource, dialect: SqliteDialect, database: DatabaseConnection): PetSql {
  const write: Statement = (sql, parameters) => dataSource.query(sql, parameters);
  let opening: Promise<SqliteReaders | undefined> | undefined;
  // The last connection to the file to close checkpoints the WAL and removes it, which a read-only one cannot do.
  database.beforeClose(async () => (await opening)?.close());

  /** Opened on the first read, which comes after the file was created and migrated; none for an in-memory database. */
  const rows = async <T>(sql: string, parameters: unknown[]): Promise<T[]> => {
    // An in-memory database exists only inside its one connection.
    opening ??= dialect.config.path === ':memory:' ? Promise.resolve(undefined) : SqliteReaders.open(dialect.config.path, READERS, dialect.config.connectTimeoutMs);
    const readers = await opening;
    return readers ? readers.all<T>(sql, parameters) : ((await dataSource.query(sql, parameters)) as T[]);
  };
  const select = async (sql: string, parameters: unknown[]): Promise<Pet[]> => {
    const [{ pets }] = await rows<{ pets: string }>(sql, parameters);
    return (JSON.parse(pets) as unknown[][]).map(valuesToPet);
  };

  return {
    readConnections: READERS,
    pages: SQLITE_PAGES,
    byIds: (ids) => select(SQL.byIds, [JSON.stringify(ids)]),
    // A name search in a category: first how many pets the category has (a count on its index, up to the limit), which
    // picks the way in (statementFor); both ways answer the same page.
    async page(page: PageStatement) {
      const probe = page.fewInCategory?.probe;
      const [{ count }] = probe ? await rows<{ count: number }>(probe.sql, probe.values) : [{ count: Infinity }];
      const { sql, values } = statementFor(page, count);
      return select(sql, values);
    },
    async beginWrite(isolated) {
      const end = await dialect.transactions.take();
      if (!isolated) return { statement: write, commit: async () => end(), rollback: async () => end() };
      const transaction = await beginImmediate((sql) => write(sql, [])).catch((error: unknown) => {
        end();
        throw error;
      });
      return { statement: write, commit: () => transaction.commit().finally(end), rollback: () => transaction.rollback().finally(end) };
    },
    // One multi-row INSERT holds the file's write lock while it runs: its rows got consecutive ids in the order they
    // were listed, whichever process wrote them.
    async insertPets(statement, pets) {
      const lastId = toSafeInteger(await statement(SQL.insertPets(pets.length), pets.flatMap(petValues)));
      return pets.map((pet, index) => ({ ...pet, id: lastId - pets.length + 1 + index }));
    },
    async selectClaims(statement, claims) {
      return (await statement(SQL.selectClaims, [JSON.stringify(claims.map(({ holder, key }) => [holder, key]))])) as ClaimRow[];
    },
    upsertClaims: (statement, claimed) => statement(SQL.upsertClaims(claimed.length), claimed.flatMap(claimValues)),
    purgeClaims: (before) => dialect.transactions.run(() => write(SQL.purgeClaims, [before])),
    // A batch a statement, each its own transaction: in the queue's turn, so that none joins a create's transaction.
    fillNameKeys: () => dialect.transactions.run(() => completeNameKeys(dataSource)),
  };
}
