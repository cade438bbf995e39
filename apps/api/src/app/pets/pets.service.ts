import { Injectable } from '@nestjs/common';
import { LIST_LIMIT, type NewPet, type Pet, PetStatus } from '@petstore/contract';
import type { ListPetsQueryDto } from '@petstore/contract/dto';
import { ApiException } from '../errors/api.exception';
import { decodeCursor, encodeCursor } from './pet-cursor';
import { toPet } from './pet.mapper';
import { PetsRepository } from './pets.repository';

export interface PetPage {
  pets: Pet[];
  /** Cursor of the next page, when there is one. */
  nextCursor?: string;
}

@Injectable()
export class PetsService {
  constructor(private readonly repository: PetsRepository) {}

  async listPets({ limit = LIST_LIMIT.default, status, cursor }: ListPetsQueryDto): Promise<PetPage> {
    const afterId = cursor === undefined ? 0 : decodeCursor(cursor);
    // One row more than asked tells whether a next page exists without counting.
    const rows = await this.repository.findPage({ status, afterId, take: limit + 1 });
    const pets = rows.slice(0, limit).map(toPet);
    return rows.length > limit ? { pets, nextCursor: encodeCursor(pets[pets.length - 1].id) } : { pets };
  }

  async createPet(newPet: NewPet): Promise<Pet> {
    const { name, categoryId, status = PetStatus.Available } = newPet;
    return toPet(await this.repository.insert({ name, categoryId, status }));
  }

  async getPet(id: number): Promise<Pet> {
    const pet = await this.repository.findById(id);
    if (!pet) throw new ApiException('not_found', `No pet has id ${id}.`);
    return toPet(pet);
  }
}
