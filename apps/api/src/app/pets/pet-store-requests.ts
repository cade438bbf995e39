import type { NewPet, PetStatus } from '@petstore/contract';
import type { IdempotencyClaim } from './idempotency/idempotency-key';

/** A new pet as the store writes it: with the interface's default status filled in. */
export type PetToCreate = NewPet & { status: PetStatus };

/** A create waiting for its commit, with the Idempotency-Key it claims if it has one. */
export interface PendingCreate {
  pet: PetToCreate;
  claim?: IdempotencyClaim;
}

/** One page of `pets`, ordered by id: those after `afterId` that pass every filter given. */
export interface PetPageQuery {
  status?: PetStatus;
  categoryId?: number;
  /** The `name` filter's nameSearchKey: pets whose name's key contains it. */
  nameKey?: string;
  afterId: number;
  take: number;
}
