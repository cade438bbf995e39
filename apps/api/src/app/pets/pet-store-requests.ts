import type { NewPet, PetFilters, PetStatus } from '@petstore/contract';
import type { IdempotencyClaim } from './idempotency/idempotency-key';

/** A new pet as the store writes it: with the interface's default status filled in. */
export type PetToCreate = NewPet & { status: PetStatus };

/** A create waiting for its commit, with the Idempotency-Key it claims if it has one. */
export interface PendingCreate {
  pet: PetToCreate;
  claim?: IdempotencyClaim;
}

/** One page of `pets`, ordered by id: those after `afterId` that pass every filter given (passesFilters). */
export interface PetPageQuery {
  filters: PetFilters;
  afterId: number;
  take: number;
}
