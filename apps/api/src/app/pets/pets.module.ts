import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKeyPurge } from './idempotency/idempotency-key-purge';
import { PetEntity } from './pet.entity';
import { PetsController } from './pets.controller';
import { PetsRepository } from './pets.repository';
import { PetsService } from './pets.service';

@Module({
  imports: [TypeOrmModule.forFeature([PetEntity])],
  controllers: [PetsController],
  providers: [PetsService, PetsRepository, IdempotencyKeyPurge],
})
export class PetsModule {}
