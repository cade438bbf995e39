import { Injectable } from '@nestjs/common';
import { filtersIn, LIST_LIMIT, type NewPet, type Pet, PET_FIELDS, withDefaults } from '@petstore/contract';
import type { ListPetsQueryDto } from '@petstore/contract/dto';
import { idempotencyKeyInUse, idempotencyKeyReused, petNotFound } from './pet-errors';
import { Metrics } from '../metrics/metrics';
import { type IdempotencyRequest, newClaim } from './idempotency/idempotency-key';
import { decodeCursor, encodeCursor } from './pet-cursor';
import { PetStore } from './pet.store';
import type { PetToCreate } from './pet-store-requests';

export interface PetPage {
  pets: Pet[];
  /** Cursor of the next page, when there is one. */
  nextCursor?: string;
}

export interface CreatedPet {
  pet: Pet;
  /** True when an earlier create with the same Idempotency-Key and body is answered again. */
  replayed: boolean;
}

@Injectable()
export class PetsService {
  constructor(
    private readonly store: PetStore,
    private readonly metrics: Metrics,
  ) {}

  async listPets(query: ListPetsQueryDto): Promise<PetPage> {
    const { limit = LIST_LIMIT.default, cursor } = query;
    // A cursor is a place in id order, whatever the filters of the page that made it.
    const afterId = cursor === undefined ? 0 : decodeCursor(cursor);
    // One row more than asked tells whether a next page exists without counting.
    const rows = await this.store.findPage({ filters: filtersIn(query), afterId, take: limit + 1 });
    const pets = rows.slice(0, limit);
    return rows.length > limit ? { pets, nextCursor: encodeCursor(pets[pets.length - 1].id) } : { pets };
  }

  async createPet(newPet: NewPet, idempotency?: IdempotencyRequest): Promise<CreatedPet> {
    // Validation let no unknown property through, so the body is the new pet, with the interface's defaults.
    const pet = withDefaults(PET_FIELDS, newPet) as PetToCreate;
    if (!idempotency) return { pet: await this.store.insert(pet), replayed: false };

    // The body as sent, not as completed with defaults: a retry must send an equal body. Whether the key is free is
    // the store's to decide, inside the database's transaction, so that it holds across processes.
    const claim = newClaim(idempotency, newPet);
    const result = await this.store.insertIdempotently(pet, claim);
    if (result.outcome === 'created') return { pet: result.pet, replayed: false };
    if (result.outcome === 'in_use') {
      this.metrics.idempotencyConflicts.inc({ reason: 'in_use' });
      throw idempotencyKeyInUse();
    }
    if (result.fingerprint !== claim.fingerprint) {
      this.metrics.idempotencyConflicts.inc({ reason: 'reused' });
      throw idempotencyKeyReused();
    }
    this.metrics.idempotentReplays.inc();
    return { pet: await this.getPet(result.petId), replayed: true };
  }

  async getPet(id: number): Promise<Pet> {
    const pet = await this.store.findById(id);
    if (!pet) throw petNotFound(id);
    return pet;
  }
}
