import type { Pet, PetStatus } from '@petstore/contract';
import type { DataSource } from 'typeorm';
import type { DatabaseConnection } from '../../database/database-connection';
import type { SqliteConfig } from '../../database/sqlite/sqlite.dialect';
import { SqliteReaders } from '../../database/sqlite/sqlite-readers';
import type { IdempotencyClaim } from '../idempotency/idempotency-key';
import { type IdempotentInsert, type PetPageQuery, PetStore, type PetToCreate } from '../pet-store';
import { toPet } from './pet-row';
import { BatchedCreates } from './batched-creates';
import { PetLookups } from './pet-lookups';
import { writeSqliteBatch } from './sqlite-creates';

/** As many as libuv's default thread pool has threads. */
const READERS = 4;

// Each lookup answers one row holding its pets as one JSON array of [id, name, categoryId, status]: sqlite3 builds a
// JavaScript object per row and column through N-API, which cost more than JSON.parse of the same pets (measured:
// 17 µs less main-thread time per lookup of 25 pets, see docs/performance.md).
const AS_JSON = 'json_group_array(json_array(id, name, category_id, status) ORDER BY id) AS pets';

const SQL = {
  page: `SELECT ${AS_JSON} FROM (SELECT * FROM pets WHERE id > ? ORDER BY id LIMIT ?)`,
  pageByStatus: `SELECT ${AS_JSON} FROM (SELECT * FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?)`,
  // One statement for any number of ids, read from a JSON array: one prepared statement serves every batch size.
  byIds: `SELECT ${AS_JSON} FROM pets WHERE id IN (SELECT value FROM json_each(?))`,
  purgeClaims: 'DELETE FROM idempotency_keys WHERE created_at <= ?',
};

interface PetsAsJson {
  pets: string;
}

/**
 * Pets in a SQLite file. One connection writes (TypeORM's), and creates that arrive together are committed together
 * (BatchedCreates); reads go to a few read-only connections with prepared statements, which WAL lets run beside the
 * writer and each other on the thread pool. Any number of processes may share the file.
 */
export class SqlitePetStore extends PetStore {
  private readonly creates: BatchedCreates;
  private readonly lookups: PetLookups;
  private readers?: SqliteReaders;
  private opening?: Promise<SqliteReaders>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly database: DatabaseConnection,
    private readonly config: SqliteConfig,
  ) {
    super();
    this.creates = new BatchedCreates((batch) => writeSqliteBatch((sql, parameters) => dataSource.query(sql, parameters), batch));
    this.lookups = new PetLookups(
      (ids) => this.select(SQL.byIds, [JSON.stringify(ids)]),
      ({ status, afterId, take }) => (status === undefined ? this.select(SQL.page, [afterId, take]) : this.select(SQL.pageByStatus, [status, afterId, take])),
    );
    // The last connection to the file to close checkpoints the WAL and removes it, which a read-only one cannot do.
    database.beforeClose(async () => (await this.opening)?.close());
  }

  findPage(query: PetPageQuery): Promise<Pet[]> {
    return this.lookups.findPage(query);
  }

  findById(id: number): Promise<Pet | undefined> {
    return this.lookups.findById(id);
  }

  insert(pet: PetToCreate): Promise<Pet> {
    return this.database.run(() => this.creates.create(pet));
  }

  insertIdempotently(pet: PetToCreate, claim: IdempotencyClaim): Promise<IdempotentInsert> {
    return this.database.run(() => this.creates.createIdempotently(pet, claim));
  }

  async purgeIdempotencyKeys(before: number): Promise<void> {
    await this.database.run(() => this.dataSource.query(SQL.purgeClaims, [before]));
  }

  /** One lookup of a batch: 503 when the database cannot serve it. */
  private select(sql: string, parameters: unknown[]): Promise<Pet[]> {
    return this.database.run(async () => {
      const readers = this.readers ?? (await this.openReaders());
      const [{ pets }] = readers ? await readers.all<PetsAsJson>(sql, parameters) : ((await this.dataSource.query(sql, parameters)) as PetsAsJson[]);
      return (JSON.parse(pets) as Array<[number, string, number, PetStatus]>).map(([id, name, categoryId, status]) => toPet({ id, name, categoryId, status }));
    });
  }

  /** Opened on the first read, which comes after the file was created and migrated; none for an in-memory database. */
  private async openReaders(): Promise<SqliteReaders | undefined> {
    // An in-memory database exists only inside its one connection.
    if (this.config.path === ':memory:') return undefined;
    this.opening ??= SqliteReaders.open(this.config.path, READERS, this.config.connectTimeoutMs);
    this.readers = await this.opening;
    return this.readers;
  }
}
