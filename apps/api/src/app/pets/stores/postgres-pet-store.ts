import type { Pet } from '@petstore/contract';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { DatabaseConnection } from '../../database/database-connection';
import type { IdempotencyClaim } from '../idempotency/idempotency-key';
import { type IdempotentInsert, type PetPageQuery, PetStore, type PetToCreate } from '../pet-store';
import { BatchedCreates } from './batched-creates';
import { PET_COLUMNS, type PetRow, toPet } from './pet-row';
import { PetLookups } from './pet-lookups';
import { writePostgresBatch } from './postgres-creates';

const SQL = {
  page: `SELECT ${PET_COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`,
  pageByStatus: `SELECT ${PET_COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
  // One statement for any number of ids, from an array parameter.
  byIds: `SELECT ${PET_COLUMNS} FROM pets WHERE id = ANY($1)`,
  purgeClaims: 'DELETE FROM idempotency_keys WHERE created_at <= $1',
};

/**
 * Pets in PostgreSQL, which several instances may share. Creates that arrive together are one transaction
 * (BatchedCreates, postgres-creates.ts), and an Idempotency-Key is decided under a transaction-scoped advisory lock,
 * so across instances; reads are batched as on SQLite.
 */
export class PostgresPetStore extends PetStore {
  private readonly creates: BatchedCreates;
  private readonly lookups: PetLookups;

  constructor(
    private readonly dataSource: DataSource,
    private readonly database: DatabaseConnection,
  ) {
    super();
    this.creates = new BatchedCreates((batch) => writePostgresBatch(dataSource, batch));
    this.lookups = new PetLookups(
      (ids) => this.select(SQL.byIds, [ids]),
      ({ status, afterId, take }) => (status === undefined ? this.select(SQL.page, [afterId, take]) : this.select(SQL.pageByStatus, [status, afterId, take])),
    );
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

  /**
   * One lookup of a batch: 503 when the database cannot serve it. On TypeORM's own pool (same connections, pool size
   * and timeouts) but without a QueryRunner and result wrapping per query, which cost a read by id 7% of PostgreSQL's
   * throughput against SQLite's (docs/performance.md).
   */
  private select(sql: string, parameters: unknown[]): Promise<Pet[]> {
    return this.database.run(async () => {
      const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
      return (await pool.query<PetRow>(sql, parameters)).rows.map(toPet);
    });
  }
}
