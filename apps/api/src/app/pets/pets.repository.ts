import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { NewPet, PetStatus } from '@petstore/contract';
import type { EntityManager, Repository } from 'typeorm';
import { DatabaseConnection } from '../database/database-connection';
import { bindNamed } from '../database/named-parameters';
import { toSafeInteger } from '../database/safe-integer';
import { BatchedLookup } from './batched-lookup';
import { IDEMPOTENCY_KEY_TTL_MS, type IdempotencyClaim } from './idempotency/idempotency-key';
import type { IdempotentInsert } from './idempotent-insert';
import { PetEntity } from './pet.entity';
import { SqliteCreates } from './sqlite-creates';

export interface PetPageQuery {
  status?: PetStatus;
  afterId: number;
  take: number;
}

/** A row as the queries below select it; PostgreSQL gives 64-bit columns as strings. */
interface PetRow {
  id: number | string;
  name: string;
  categoryId: number | string;
  status: PetStatus;
}

const COLUMNS = 'id, name, category_id AS "categoryId", status';

// The reads are the hot path of the service: plain SQL with named parameters, bound by position for the driver
// (database/named-parameters.ts), costs a fraction of building the same query with the query builder each time.
const SQL = {
  page: `SELECT ${COLUMNS} FROM pets WHERE id > :afterId ORDER BY id LIMIT :take`,
  pageByStatus: `SELECT ${COLUMNS} FROM pets WHERE status = :status AND id > :afterId ORDER BY id LIMIT :take`,
  // One statement for any number of ids: SQLite reads them from a JSON array, PostgreSQL from an array parameter.
  byIds: {
    sqlite: `SELECT ${COLUMNS} FROM pets WHERE id IN (SELECT value FROM json_each(:ids))`,
    postgres: `SELECT ${COLUMNS} FROM pets WHERE id = ANY(:ids)`,
  },
  claim: `SELECT fingerprint, pet_id AS "petId" FROM idempotency_keys
          WHERE holder = :holder AND idempotency_key = :key AND created_at > :since`,
  // A transaction-scoped lock per key: a concurrent retry on another instance sees it taken instead of waiting,
  // and a crash releases it with the transaction.
  lockClaim: 'SELECT pg_try_advisory_xact_lock(hashtextextended(:lock, 0)) AS locked',
  insertReturningId: 'INSERT INTO pets (name, category_id, status) VALUES (:name, :categoryId, :status) RETURNING id',
  // An expired key of the same name is replaced: the 24 hours start again from this create.
  upsertClaim: `INSERT INTO idempotency_keys (holder, idempotency_key, fingerprint, pet_id, created_at)
                VALUES (:holder, :key, :fingerprint, :petId, :createdAt)
                ON CONFLICT (holder, idempotency_key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
                  pet_id = EXCLUDED.pet_id, created_at = EXCLUDED.created_at`,
  purgeClaims: 'DELETE FROM idempotency_keys WHERE created_at <= :before',
};

const toEntity = (row: PetRow): PetEntity => ({
  id: toSafeInteger(row.id),
  name: row.name,
  categoryId: toSafeInteger(row.categoryId),
  status: row.status,
});

/**
 * Lookups of each kind running at once; whatever is asked for meanwhile is looked up together once it is done.
 * One lets batches grow largest: on two cores it served 3 to 5% more reads by id than two, and more than three or four.
 */
const LOOKUPS_IN_FLIGHT = 1;

/** The only place that talks to the `pets` table. */
@Injectable()
export class PetsRepository {
  // SQLite has one writer and an fsync per commit: creates that arrive together are committed together. PostgreSQL
  // runs concurrent commits side by side already, and its identity values may interleave between transactions.
  private readonly sqliteCreates?: SqliteCreates;
  private readonly byId: BatchedLookup<number, number, PetEntity>;
  /** Pages by `status:afterId:take`: requests for the same page that wait together share one query. */
  private readonly pages: BatchedLookup<PetPageQuery, string, PetEntity[]>;

  constructor(
    @InjectRepository(PetEntity) private readonly pets: Repository<PetEntity>,
    private readonly database: DatabaseConnection,
  ) {
    const sqlite = pets.manager.connection.options.type === 'sqlite';
    if (sqlite) this.sqliteCreates = new SqliteCreates((sql, parameters) => this.pets.query(sql, parameters));
    const byIds = sqlite ? SQL.byIds.sqlite : SQL.byIds.postgres;
    this.byId = new BatchedLookup((id) => id, async (ids) => {
      const rows = await this.select(byIds, { ids: sqlite ? JSON.stringify(ids) : ids });
      return new Map(rows.map((row) => [row.id, row]));
    }, LOOKUPS_IN_FLIGHT);
    this.pages = new BatchedLookup(
      pageKeyOf,
      async (queries) => new Map(await Promise.all(queries.map(async (query) => [pageKeyOf(query), await this.selectPage(query)] as const))),
      LOOKUPS_IN_FLIGHT,
    );
  }

  async findPage(query: PetPageQuery): Promise<PetEntity[]> {
    return (await this.pages.load(query)) ?? [];
  }

  async findById(id: number): Promise<PetEntity | null> {
    return (await this.byId.load(id)) ?? null;
  }

  /** Inserts one pet: committed and synced when this resolves. */
  insert(pet: Required<NewPet>): Promise<PetEntity> {
    return this.database.run(async () => {
      if (this.sqliteCreates) return this.sqliteCreates.create(pet);
      const result = await this.pets.insert(pet);
      return { ...pet, id: toSafeInteger(result.identifiers[0].id) };
    });
  }

  /**
   * Inserts one pet and its idempotency key in one transaction, unless the key already answered a create within
   * 24 hours or another create with it is still running. The decision is the database's, so it holds across
   * instances and processes.
   */
  insertIdempotently(pet: Required<NewPet>, claim: IdempotencyClaim): Promise<IdempotentInsert> {
    return this.database.run(() =>
      this.sqliteCreates ? this.sqliteCreates.createIdempotently(pet, claim) : this.insertIdempotentlyOnPostgres(pet, claim),
    );
  }

  private selectPage({ status, afterId, take }: PetPageQuery): Promise<PetEntity[]> {
    return status === undefined
      ? this.select(SQL.page, { afterId, take })
      : this.select(SQL.pageByStatus, { status, afterId, take });
  }

  /** Forgets idempotency keys created at or before `before` (epoch ms). */
  async purgeIdempotencyKeys(before: number): Promise<void> {
    await this.database.run(() => this.query(this.pets.manager, SQL.purgeClaims, { before }));
  }

  private insertIdempotentlyOnPostgres(pet: Required<NewPet>, claim: IdempotencyClaim): Promise<IdempotentInsert> {
    return this.pets.manager.transaction(async (manager): Promise<IdempotentInsert> => {
      // Keys are visible ASCII, so a newline keeps holder and key apart.
      const [{ locked }] = await this.query<{ locked: boolean }>(manager, SQL.lockClaim, { lock: `${claim.holder}\n${claim.key}` });
      if (!locked) return { outcome: 'in_use' };
      const [stored] = await this.query<StoredClaim>(manager, SQL.claim, claimLookup(claim));
      if (stored) return storedOutcome(stored);
      const [{ id }] = await this.query<{ id: string }>(manager, SQL.insertReturningId, pet);
      const petId = toSafeInteger(id);
      await this.query(manager, SQL.upsertClaim, { ...claim, petId });
      return { outcome: 'created', pet: { ...pet, id: petId } };
    });
  }

  private query<T>(manager: EntityManager, sql: string, parameters: object): Promise<T[]> {
    const style = manager.connection.options.type === 'postgres' ? 'postgres' : 'sqlite';
    return manager.query(...bindNamed(sql, parameters as Record<string, unknown>, style));
  }

  private async select(sql: string, parameters: Record<string, unknown>): Promise<PetEntity[]> {
    return (await this.database.read<PetRow>(sql, parameters)).map(toEntity);
  }
}

const pageKeyOf = ({ status, afterId, take }: PetPageQuery) => `${status ?? ''}:${afterId}:${take}`;

interface StoredClaim {
  fingerprint: string;
  petId: number | string;
}

const storedOutcome = ({ fingerprint, petId }: StoredClaim): IdempotentInsert => ({ outcome: 'stored', fingerprint, petId: toSafeInteger(petId) });

const claimLookup = ({ holder, key, createdAt }: IdempotencyClaim) => ({ holder, key, since: createdAt - IDEMPOTENCY_KEY_TTL_MS });
