import type { Pet } from '@petstore/contract';
import type { DataSource } from 'typeorm';
import type { DatabaseConnection } from '../../database/database-connection';
import type { Metrics } from '../../metrics/metrics';
import type { SqliteDialect } from '../../database/sqlite/sqlite.dialect';
import { SqliteReaders } from '../../database/sqlite/sqlite-readers';
import { completeNameKeys } from '../../database/migrations/complete-name-keys';
import { shortPieceToken } from '../../database/migrations/short-name-index';
import type { IdempotentInsert, PetPageQuery } from '../pet.store';
import { CLAIM_COLUMN } from '../idempotency/idempotency-row';
import type { PendingCreate } from './create-group-commit';
import { DatabasePetStore } from './database-pet.store';
import { type PageDialect, type PageStatement, pageStatementOf, statementFor } from './pet-page-sql';
import { NAME_KEY_COLUMN, PET_COLUMN_NAMES, valuesToPet } from './pet-row';
import { writeSqliteCreates } from './sqlite-create-sql';

/** As many as libuv's default thread pool has threads. */
const READERS = 4;

// Each lookup answers one row holding its pets as one JSON array of their columns' values: sqlite3 builds a
// JavaScript object per row and column through N-API, which cost more than JSON.parse of the same pets (measured: see
// docs/performance.md, SQLite rows).
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
  // category of at most 5,000 pets is read whole at worst, whatever the table's size (docs/performance.md).
  smallCategory: { from: 'pets p INDEXED BY pets_category_id_id', most: 5_000 },
};

export const sqlitePageStatement = pageStatementOf(SQLITE_PAGES);

const SQL = {
  // One statement for any number of ids, read from a JSON array: one prepared statement serves every batch size.
  byIds: `SELECT ${AS_JSON} FROM pets WHERE id IN (SELECT value FROM json_each(?))`,
  purgeClaims: `DELETE FROM idempotency_keys WHERE ${CLAIM_COLUMN.createdAt} <= ?`,
};

interface PetsAsJson {
  pets: string;
}

/**
 * Pets in a SQLite file. One connection writes (TypeORM's), a batch of creates in one transaction and one fsync
 * (sqlite-create-sql.ts); reads go to a few read-only connections with prepared statements, which WAL lets run beside the
 * writer and each other on the thread pool. Any number of processes may share the file.
 */
export class SqlitePetStore extends DatabasePetStore {
  private readers?: SqliteReaders;
  private opening?: Promise<SqliteReaders>;

  constructor(
    private readonly dataSource: DataSource,
    database: DatabaseConnection,
    private readonly dialect: SqliteDialect,
    metrics: Metrics,
  ) {
    super(database, metrics, READERS);
    // The last connection to the file to close checkpoints the WAL and removes it, which a read-only one cannot do.
    database.beforeClose(async () => (await this.opening)?.close());
  }

  protected selectByIds(ids: number[]): Promise<Pet[]> {
    return this.select(SQL.byIds, [JSON.stringify(ids)]);
  }

  protected pageStatement(query: PetPageQuery): PageStatement {
    return sqlitePageStatement(query);
  }

  // A name search in a category: first how many pets the category has (a count on its index, up to the limit), which
  // picks the way in (statementFor); both ways answer the same page.
  protected async selectPage(page: PageStatement): Promise<Pet[]> {
    const probe = page.fewInCategory?.probe;
    const [{ count }] = probe ? await this.rows<{ count: number }>(probe.sql, probe.values) : [{ count: Infinity }];
    const { sql, values } = statementFor(page, count);
    return this.select(sql, values);
  }

  protected writeCreates(batch: PendingCreate[]): Promise<IdempotentInsert[]> {
    // Its turn among the connection's transactions, which the webhook outbox's writes share.
    return this.dialect.transactions.run(() => writeSqliteCreates((sql, parameters) => this.dataSource.query(sql, parameters), batch));
  }

  protected deleteIdempotencyKeys(before: number): Promise<unknown> {
    return this.dataSource.query(SQL.purgeClaims, [before]);
  }

  protected fillNameKeys(): Promise<number> {
    // A batch a statement, each its own transaction: in the queue's turn, so that none joins a create's transaction.
    return this.dialect.transactions.run(() => completeNameKeys(this.dataSource));
  }

  private async select(sql: string, parameters: unknown[]): Promise<Pet[]> {
    const [{ pets }] = await this.rows<PetsAsJson>(sql, parameters);
    return (JSON.parse(pets) as unknown[][]).map(valuesToPet);
  }

  private async rows<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    const readers = this.readers ?? (await this.openReaders());
    return readers ? readers.all<T>(sql, parameters) : ((await this.dataSource.query(sql, parameters)) as T[]);
  }

  /** Opened on the first read, which comes after the file was created and migrated; none for an in-memory database. */
  private async openReaders(): Promise<SqliteReaders | undefined> {
    // An in-memory database exists only inside its one connection.
    if (this.dialect.config.path === ':memory:') return undefined;
    this.opening ??= SqliteReaders.open(this.dialect.config.path, READERS, this.dialect.config.connectTimeoutMs);
    this.readers = await this.opening;
    return this.readers;
  }
}
