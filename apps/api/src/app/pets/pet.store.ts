import type { NewPet, Pet, PetStatus } from '@petstore/contract';
import type { IdempotentInsert } from './idempotency/claim-decision';
import type { IdempotencyClaim } from './idempotency/idempotency-key';

// The port's answer to an idempotent create is idempotency's decision: callers of the port import it from here.
export type { IdempotentInsert };

/** A new pet as the stores write it: with the interface's default status filled in. */
export type PetToCreate = NewPet & { status: PetStatus };

/** One page of `pets`, ordered by id: those after `afterId` that pass every filter given. */
export interface PetPageQuery {
  status?: PetStatus;
  categoryId?: number;
  /** The `name` filter's nameSearchKey: pets whose name's key contains it. */
  nameKey?: string;
  afterId: number;
  take: number;
}

/**
 * Where pets and their idempotency keys are kept: the port the service talks to. One implementation per database
 * (stores/), chosen once when the pets module is built; each owns its SQL, its batching and its idempotency decision.
 * Every method answers 503 when the database cannot serve.
 */
export abstract class PetStore {
  abstract findPage(query: PetPageQuery): Promise<Pet[]>;

  abstract findById(id: number): Promise<Pet | undefined>;

  /** Resolves once the pet is committed and synced. */
  abstract insert(pet: PetToCreate): Promise<Pet>;

  /**
   * Inserts the pet and its key in one transaction, unless the key answered a create within 24 hours or another
   * create with it is still running. The decision is the database's, so it holds across instances and processes.
   */
  abstract insertIdempotently(pet: PetToCreate, claim: IdempotencyClaim): Promise<IdempotentInsert>;

  /** Forgets idempotency keys created at or before `before` (epoch ms). */
  abstract purgeIdempotencyKeys(before: number): Promise<void>;

  /** Writes the search key of the pets an instance of an older version stored without it or with another; how many. */
  abstract completeNameKeys(): Promise<number>;
}
