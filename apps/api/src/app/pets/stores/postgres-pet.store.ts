import type { Pet } from '@petstore/contract';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { DatabaseConnection } from '../../database/database-connection';
import type { PostgresDialect } from '../../database/postgres/postgres.dialect';
import type { Metrics } from '../../metrics/metrics';
import type { IdempotentInsert, PetPageQuery } from '../pet.store';
import { CLAIM_COLUMN } from '../idempotency/idempotency-row';
import type { PendingCreate } from './create-group-commit';
import { DatabasePetStore } from './database-pet.store';
import { type PageDialect, type PageStatement, pageStatementOf } from './pet-page-sql';
import { NAME_KEY_COLUMN, petSelectList, type PetRow, toPet } from './pet-row';
import { writePostgresCreates } from './postgres-create-sql';
import { completeNameKeys } from '../../database/migrations/complete-name-keys';

const PET_COLUMNS = petSelectList();

/** LIKE's own characters in a key, escaped with LIKE's default escape, the backslash. */
const likeLiteral = (key: string) => key.replace(/[\\%_]/g, '\\$&');

/**
 * A name search of three characters or more is a LIKE the pg_trgm GIN index on the key serves; the planner weighs it
 * against walking the primary key in id order, which wins when many names match (plans: docs/performance.md). A
 * shorter one is a containment the GIN index of the key's one- and two-character pieces serves (pet_name_pieces),
 * read after a walk of the first 5,000 pets: the planner's estimate of a piece it has not sampled is a flat 0.5% of the
 * table, which made it walk id order through every row for a piece no name holds.
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

export const postgresPageStatement = pageStatementOf(POSTGRES_PAGES);

const SQL = {
  // One statement for any number of ids, from an array parameter.
  byIds: `SELECT ${PET_COLUMNS} FROM pets WHERE id = ANY($1)`,
  purgeClaims: `DELETE FROM idempotency_keys WHERE ${CLAIM_COLUMN.createdAt} <= $1`,
};

/**
 * Pets in PostgreSQL, which several instances may share. A batch of creates is one transaction, its Idempotency-Keys
 * decided under transaction-scoped advisory locks, so across instances (postgres-create-sql.ts).
 */
export class PostgresPetStore extends DatabasePetStore {
  constructor(
    private readonly dataSource: DataSource,
    database: DatabaseConnection,
    private readonly dialect: PostgresDialect,
    metrics: Metrics,
  ) {
    super(database, metrics, dialect.config.poolSize);
  }

  protected selectByIds(ids: number[]): Promise<Pet[]> {
    return this.select(SQL.byIds, [ids]);
  }

  protected pageStatement(query: PetPageQuery): PageStatement {
    return postgresPageStatement(query);
  }

  protected selectPage({ sql, values }: PageStatement): Promise<Pet[]> {
    return this.select(sql, values);
  }

  protected writeCreates(batch: PendingCreate[]): Promise<IdempotentInsert[]> {
    return writePostgresCreates(this.dataSource, batch);
  }

  protected deleteIdempotencyKeys(before: number): Promise<unknown> {
    return this.dataSource.query(SQL.purgeClaims, [before]);
  }

  protected fillNameKeys(): Promise<number> {
    return completeNameKeys(this.dataSource);
  }

  /**
   * On TypeORM's own pool (same connections, pool size and timeouts) but without a QueryRunner and result wrapping per
   * query, which cost reads by id part of their throughput (measured: see docs/performance.md, PostgreSQL lookups).
   */
  private async select(sql: string, parameters: unknown[]): Promise<Pet[]> {
    // Reads run only once the database connected (DatabaseConnection), so the pool is there.
    const pool = this.dialect.pool(this.dataSource) as Pool;
    return (await pool.query<PetRow>(sql, parameters)).rows.map(toPet);
  }
}
