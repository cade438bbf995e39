import type { Pet } from '@petstore/contract';
import { toSafeInteger } from '../../database/safe-integer';
import { GroupCommit } from '../group-commit';
import { IDEMPOTENCY_KEY_TTL_MS, type IdempotencyClaim } from '../idempotency/idempotency-key';
import type { IdempotentInsert, PetToCreate } from '../pet-store';
import { PET_INSERT_COLUMNS, petValues } from './pet-row';

/** Runs one statement on the connection that writes; an INSERT resolves to the rowid of its last row. */
export type SqliteStatement = (sql: string, parameters: unknown[]) => Promise<unknown>;

/** A create waiting for its commit, with the Idempotency-Key it claims if it has one. */
export interface PendingCreate {
  pet: PetToCreate;
  claim?: IdempotencyClaim;
}

/** What the batch does with one create: insert it, or answer it without a write. */
type Decision = 'create' | Exclude<IdempotentInsert, { outcome: 'created' }>;

interface StoredClaim {
  holder: string;
  key: string;
  fingerprint: string;
  petId: number | string;
  createdAt: number | string;
}

const SQL = {
  // One statement for any number of keys: the (holder, key) pairs come as one JSON array.
  storedClaims: `SELECT holder, idempotency_key AS "key", fingerprint, pet_id AS "petId", created_at AS "createdAt"
                 FROM idempotency_keys
                 WHERE (holder, idempotency_key) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))`,
  insertPets: (rows: number) =>
    `INSERT INTO pets (${PET_INSERT_COLUMNS.join(', ')}) VALUES ${Array(rows).fill(`(${PET_INSERT_COLUMNS.map(() => '?').join(', ')})`).join(', ')}`,
  // An expired key of the same name is replaced: the 24 hours start again from this create.
  insertClaims: (rows: number) =>
    `INSERT OR REPLACE INTO idempotency_keys (holder, idempotency_key, fingerprint, pet_id, created_at)
     VALUES ${Array(rows).fill('(?, ?, ?, ?, ?)').join(', ')}`,
};

// Keys are visible ASCII, so a newline keeps holder and key apart.
const claimId = ({ holder, key }: { holder: string; key: string }) => `${holder}\n${key}`;

/**
 * Creates on SQLite. Those that arrive together are committed together, in one transaction and one fsync, and whether
 * a create with an Idempotency-Key goes ahead is decided inside that transaction: SQLite admits one writer at a time
 * to the file, whichever process it runs in, so processes sharing the file cannot both create for one key.
 */
export class SqliteCreates {
  private readonly groupCommit = new GroupCommit<PendingCreate, IdempotentInsert>((batch) => this.commit(batch));
  /** The keys of the batch being committed by this process. */
  private committing = new Set<string>();

  constructor(private readonly statement: SqliteStatement) {}

  /** Resolves once the pet is committed and synced. */
  async create(pet: PetToCreate): Promise<Pet> {
    const result = await this.groupCommit.add({ pet });
    if (result.outcome !== 'created') throw new Error(`a create without an Idempotency-Key was answered ${result.outcome}`);
    return result.pet;
  }

  /** Creates the pet and stores its key, unless the key answered a create within 24 hours or is in use. */
  createIdempotently(pet: PetToCreate, claim: IdempotencyClaim): Promise<IdempotentInsert> {
    // A repeat of a create this process is committing right now gets the 409 that a create still running is due,
    // rather than a replay once the commit is done. Correctness does not rest on it: the batch decides in its transaction.
    if (this.committing.has(claimId(claim))) return Promise.resolve({ outcome: 'in_use' });
    return this.groupCommit.add({ pet, claim });
  }

  private async commit(batch: PendingCreate[]): Promise<IdempotentInsert[]> {
    this.committing = new Set(batch.flatMap(({ claim }) => (claim ? [claimId(claim)] : [])));
    try {
      return await writeBatch(this.statement, batch);
    } finally {
      this.committing = new Set();
    }
  }
}

/**
 * Writes one batch in one transaction and answers each create in order. A batch without keys is one INSERT. One with
 * keys takes the write lock first (BEGIN IMMEDIATE), so that no other writer, in this process or another, can store
 * one of its keys between the look and the write.
 */
export async function writeBatch(statement: SqliteStatement, batch: PendingCreate[]): Promise<IdempotentInsert[]> {
  const claims = batch.flatMap(({ claim }) => (claim ? [claim] : []));
  if (claims.length === 0) return created(batch, await insertPets(statement, batch));

  await statement('BEGIN IMMEDIATE', []);
  try {
    const stored = (await statement(SQL.storedClaims, [JSON.stringify(claims.map(({ holder, key }) => [holder, key]))])) as StoredClaim[];
    const decisions = decide(batch, stored);
    const creates = batch.filter((_, index) => decisions[index] === 'create');
    const pets = creates.length > 0 ? created(creates, await insertPets(statement, creates)) : [];
    const claimed = creates.flatMap(({ claim }, index) => (claim ? [{ claim, petId: pets[index].pet.id }] : []));
    if (claimed.length > 0) {
      await statement(
        SQL.insertClaims(claimed.length),
        claimed.flatMap(({ claim, petId }) => [claim.holder, claim.key, claim.fingerprint, petId, claim.createdAt]),
      );
    }
    await statement('COMMIT', []);
    let next = 0;
    return decisions.map((decision) => (decision === 'create' ? pets[next++] : decision));
  } catch (error) {
    await statement('ROLLBACK', []).catch(() => undefined);
    throw error;
  }
}

/**
 * Per create, in order: a key that answered a create within 24 hours is answered from there; a key that an earlier
 * create of the batch claims is in use, as that create is still running; anything else is created.
 */
function decide(batch: PendingCreate[], stored: StoredClaim[]): Decision[] {
  const storedById = new Map(stored.map((row) => [claimId(row), row]));
  const claimed = new Set<string>();
  return batch.map(({ claim }): Decision => {
    if (!claim) return 'create';
    const id = claimId(claim);
    const found = storedById.get(id);
    if (found && toSafeInteger(found.createdAt) > claim.createdAt - IDEMPOTENCY_KEY_TTL_MS) {
      return { outcome: 'stored', fingerprint: found.fingerprint, petId: toSafeInteger(found.petId) };
    }
    if (claimed.has(id)) return { outcome: 'in_use' };
    claimed.add(id);
    return 'create';
  });
}

/** One multi-row INSERT: resolves to the id of its last row. */
async function insertPets(statement: SqliteStatement, creates: PendingCreate[]): Promise<number> {
  const values = creates.flatMap(({ pet }) => petValues(pet));
  return toSafeInteger((await statement(SQL.insertPets(creates.length), values)) as number);
}

/**
 * One statement under the write lock: the rows got consecutive ids in the order they were listed, whichever process
 * wrote them, since no other writer can take an id until the statement's transaction ends.
 */
function created(creates: PendingCreate[], lastId: number): Array<Extract<IdempotentInsert, { outcome: 'created' }>> {
  return creates.map(({ pet }, index) => ({ outcome: 'created', pet: { ...pet, id: lastId - creates.length + 1 + index } }));
}
