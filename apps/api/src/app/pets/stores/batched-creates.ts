import type { Pet } from '@petstore/contract';
import { toSafeInteger } from '../../database/safe-integer';
import { GroupCommit } from '../../database/batching/group-commit';
import { IDEMPOTENCY_KEY_TTL_MS, type IdempotencyClaim } from '../idempotency/idempotency-key';
import type { IdempotentInsert, PetToCreate } from '../pet.store';

/** A create waiting for its commit, with the Idempotency-Key it claims if it has one. */
export interface PendingCreate {
  pet: PetToCreate;
  claim?: IdempotencyClaim;
}

/** Writes a batch in one transaction and answers each create, in order, once that transaction is committed. */
export type WriteBatch = (batch: PendingCreate[]) => Promise<IdempotentInsert[]>;

/** What a batch does with one create: insert it, or answer it without a write. */
export type Decision = 'create' | Exclude<IdempotentInsert, { outcome: 'created' }>;

/** A row of `idempotency_keys` as the stores select it; PostgreSQL gives 64-bit columns as strings. */
export interface StoredClaim {
  holder: string;
  key: string;
  fingerprint: string;
  petId: number | string;
  createdAt: number | string;
}

/** The SELECT list that gives a {@link StoredClaim}. */
export const STORED_CLAIM_COLUMNS = 'holder, idempotency_key AS "key", fingerprint, pet_id AS "petId", created_at AS "createdAt"';

// Keys are visible ASCII, so a newline keeps holder and key apart.
export const claimId = ({ holder, key }: { holder: string; key: string }) => `${holder}\n${key}`;

/**
 * Creates that arrive together, committed together: one transaction (and one WAL flush) for the batch instead of one
 * per create, each caller answered only once the batch is committed. Each database writes its batches its own way.
 */
export class BatchedCreates {
  private readonly groupCommit: GroupCommit<PendingCreate, IdempotentInsert>;
  /** The keys of the batch being committed by this process. */
  private committing = new Set<string>();

  constructor(writeBatch: WriteBatch) {
    this.groupCommit = new GroupCommit(async (batch) => {
      this.committing = new Set(batch.flatMap(({ claim }) => (claim ? [claimId(claim)] : [])));
      try {
        return await writeBatch(batch);
      } finally {
        this.committing = new Set();
      }
    });
  }

  /** Creates gathered for the next batch while one is being committed. */
  get waiting(): number {
    return this.groupCommit.waitingCount;
  }

  /** Resolves once the pet is committed. */
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
}

/**
 * Per create, in order: a key that another transaction holds is in use; a key that answered a create within 24 hours
 * is answered from there; a key that an earlier create of the batch claims is in use, as that create is still
 * running; anything else is created.
 */
export function decide(batch: PendingCreate[], stored: StoredClaim[], heldElsewhere: ReadonlySet<string> = new Set()): Decision[] {
  const storedById = new Map(stored.map((row) => [claimId(row), row]));
  const claimed = new Set<string>();
  return batch.map(({ claim }): Decision => {
    if (!claim) return 'create';
    const id = claimId(claim);
    if (heldElsewhere.has(id)) return { outcome: 'in_use' };
    const found = storedById.get(id);
    if (found && toSafeInteger(found.createdAt) > claim.createdAt - IDEMPOTENCY_KEY_TTL_MS) {
      return { outcome: 'stored', fingerprint: found.fingerprint, petId: toSafeInteger(found.petId) };
    }
    if (claimed.has(id)) return { outcome: 'in_use' };
    claimed.add(id);
    return 'create';
  });
}

/** The batch's answers in its order: each decision, with the created pets in place of 'create', in their order. */
export function answers(decisions: Decision[], created: Pet[]): IdempotentInsert[] {
  let next = 0;
  return decisions.map((decision) => (decision === 'create' ? { outcome: 'created', pet: created[next++] } : decision));
}
