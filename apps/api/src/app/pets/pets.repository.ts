import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { NewPet, PetStatus } from '@petstore/contract';
import { MoreThan, Repository } from 'typeorm';
import { DatabaseConnection } from '../database/database-connection';
import { toSafeInteger } from '../database/safe-integer';
import { PetEntity } from './pet.entity';

export interface PetPageQuery {
  status?: PetStatus;
  afterId: number;
  take: number;
}

/** The only place that talks to the `pets` table. */
@Injectable()
export class PetsRepository {
  constructor(
    @InjectRepository(PetEntity) private readonly pets: Repository<PetEntity>,
    private readonly database: DatabaseConnection,
  ) {}

  findPage({ status, afterId, take }: PetPageQuery): Promise<PetEntity[]> {
    return this.database.run(() =>
      this.pets.find({ where: { id: MoreThan(afterId), ...(status && { status }) }, order: { id: 'ASC' }, take }),
    );
  }

  findById(id: number): Promise<PetEntity | null> {
    return this.database.run(() => this.pets.findOneBy({ id }));
  }

  /** Inserts one pet in its own implicit transaction: committed and synced when this resolves. */
  insert(pet: Required<NewPet>): Promise<PetEntity> {
    return this.database.run(async () => {
      const result = await this.pets.insert(pet);
      return { ...pet, id: toSafeInteger(result.identifiers[0].id) };
    });
  }
}
