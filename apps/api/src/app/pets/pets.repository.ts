import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { NewPet, PetStatus } from '@petstore/contract';
import { MoreThan, Repository } from 'typeorm';
import { PetEntity } from './pet.entity';

export interface PetPageQuery {
  status?: PetStatus;
  afterId: number;
  take: number;
}

/** The only place that talks to the `pets` table. */
@Injectable()
export class PetsRepository {
  constructor(@InjectRepository(PetEntity) private readonly pets: Repository<PetEntity>) {}

  findPage({ status, afterId, take }: PetPageQuery): Promise<PetEntity[]> {
    return this.pets.find({
      where: { id: MoreThan(afterId), ...(status && { status }) },
      order: { id: 'ASC' },
      take,
    });
  }

  findById(id: number): Promise<PetEntity | null> {
    return this.pets.findOneBy({ id });
  }

  /** Inserts one pet in its own implicit transaction: committed and synced when this resolves. */
  async insert(pet: Required<NewPet>): Promise<PetEntity> {
    const result = await this.pets.insert(pet);
    return { ...pet, id: Number(result.identifiers[0].id) };
  }
}
