import type { Pet } from '@petstore/contract';
import type { DataSource, EntityManager } from 'typeorm';
import type { DatabaseConnection } from '../../database/database-connection';
import { toSafeInteger } from '../../database/safe-integer';
import { IDEMPOTENCY_KEY_TTL_MS, type IdempotencyClaim } from '../idempotency/idempotency-key';
import { type IdempotentInsert, type PetPageQuery, PetStore, type PetToCreate } from '../pet-store';
import { PET_COLUMNS, PET_INSERT_COLUMNS, type PetRow, petValues, toPet } from './pet-row';
import { PetLookups } from './pet-lookups';

const SQL = {
  page: `SELECT ${PET_COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`,
  pageByStatus: `SELECT ${PET_COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
  // One statement for any number of ids, from an array parameter.
  byIds: `SELECT ${PET_COLUMNS} FROM pets WHERE id = ANY($1)`,
  insert: `INSERT INTO pets (${PET_INSERT_COLUMNS.join(', ')}) VALUES (${PET_INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
  // A transaction-scoped lock per key: a concurrent retry on another instance sees it taken instead of waiting,
  // and a crash releases it with the transaction.
  lockClaim: 'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
  claim: `SELECT fingerprint, pet_id AS "petId" FROM idempotency_keys
          WHERE holder = $1 AND idempotency_key = $2 AND created_at > $3`,
  // An expired key of the same name is replaced: the 24 hours start again from this create.
  upsertClaim: `INSERT INTO idempotency_keys (holder, idempotency_key, fingerprint, pet_id, created_at)
                VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (holder, idempotency_key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
                  pet_id = EXCLUDED.pet_id, created_at = EXCLUDED.created_at`,
  purgeClaims: 'DELETE FROM idempotency_keys WHERE created_at <= $1',
};

interface StoredClaim {
  fingerprint: string;
  petId: string;
}

/**
 * Pets in PostgreSQL, which several instances may share: each create is its own transaction (PostgreSQL commits them
 * side by side), and an Idempotency-Key is decided under a transaction-scoped advisory lock, so across instances.
 */
export class PostgresPetStore extends PetStore {
  private readonly lookups: PetLookups;

  constructor(
    private readonly dataSource: DataSource,
    private readonly database: DatabaseConnection,
  ) {
    super();
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
    return this.database.run(() => insertPet(this.dataSource.manager, pet));
  }

  insertIdempotently(pet: PetToCreate, claim: IdempotencyClaim): Promise<IdempotentInsert> {
    return this.database.run(() =>
      this.dataSource.transaction(async (manager): Promise<IdempotentInsert> => {
        // Keys are visible ASCII, so a newline keeps holder and key apart.
        const [{ locked }] = await manager.query(SQL.lockClaim, [`${claim.holder}\n${claim.key}`]);
        if (!locked) return { outcome: 'in_use' };
        const [stored] = (await manager.query(SQL.claim, [claim.holder, claim.key, claim.createdAt - IDEMPOTENCY_KEY_TTL_MS])) as StoredClaim[];
        if (stored) return { outcome: 'stored', fingerprint: stored.fingerprint, petId: toSafeInteger(stored.petId) };
        const created = await insertPet(manager, pet);
        await manager.query(SQL.upsertClaim, [claim.holder, claim.key, claim.fingerprint, created.id, claim.createdAt]);
        return { outcome: 'created', pet: created };
      }),
    );
  }

  async purgeIdempotencyKeys(before: number): Promise<void> {
    await this.database.run(() => this.dataSource.query(SQL.purgeClaims, [before]));
  }

  /** One lookup of a batch: 503 when the database cannot serve it. */
  private select(sql: string, parameters: unknown[]): Promise<Pet[]> {
    return this.database.run(async () => ((await this.dataSource.query(sql, parameters)) as PetRow[]).map(toPet));
  }
}

async function insertPet(manager: EntityManager, pet: PetToCreate): Promise<Pet> {
  const [{ id }] = (await manager.query(SQL.insert, petValues(pet))) as Array<{ id: string }>;
  return toPet({ ...pet, id });
}
