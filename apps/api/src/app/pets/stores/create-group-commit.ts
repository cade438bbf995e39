import type { Pet } from '@petstore/contract';
import { GroupCommit } from '../../database/batching/group-commit';
import { claimId, type IdempotencyClaim } from '../idempotency/idempotency-key';
import type { IdempotentInsert, PetToCreate } from '../pet.store';

/** A create waiting for its commit, with the Idempotency-Key it claims if it has one. */
export interface PendingCreate {
  pet: PetToCreate;
  claim?: IdempotencyClaim;
}

/** Writes a batch in one transaction and answers each create, in order, once that transaction is committed. */
export type CommitCreates = (batch: PendingCreate[]) => Promise<IdempotentInsert[]>;

/**
 * Creates that arrive together, committed together: one transaction (and one WAL flush) for the batch instead of one
 * per create, each caller answered only once the batch is committed. How a batch is written is create-transaction.ts's.
 */
export class CreateGroupCommit {
  private readonly groupCommit: GroupCommit<PendingCreate, IdempotentInsert>;
  /** The keys of the batch being committed by this process. */
  private committing = new Set<string>();

  constructor(commit: CommitCreates) {
    this.groupCommit = new GroupCommit(async (batch) => {
      // Stryker disable next-line ArrayDeclaration: a create without a key adds none; a stray entry without "\n" is no claim's id
      this.committing = new Set(batch.flatMap(({ claim }) => (claim ? [claimId(claim)] : [])));
      try {
        return await commit(batch);
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
