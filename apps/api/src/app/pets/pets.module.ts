import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseConnection } from '../database/database-connection';
import { ChosenDialect, unsupportedDatabase } from '../database/chosen-dialect';
import { Metrics } from '../metrics/metrics';
import { IdempotencyKeyPurge } from './idempotency-key-purge';
import { NameKeyBackfill } from './name-key-backfill';
import { PetStore } from './pet.store';
import { PetsController } from './pets.controller';
import { PetsService } from './pets.service';
import { PostgresPetStore } from './stores/postgres-pet.store';
import { SqlitePetStore } from './stores/sqlite-pet.store';

@Module({
  controllers: [PetsController],
  providers: [
    PetsService,
    IdempotencyKeyPurge,
    NameKeyBackfill,
    {
      // The one choice of store, made once: nothing above it asks which database is in use.
      provide: PetStore,
      inject: [DataSource, DatabaseConnection, ChosenDialect, Metrics],
      useFactory: (dataSource: DataSource, database: DatabaseConnection, { dialect }: ChosenDialect, metrics: Metrics): PetStore => {
        switch (dialect.kind) {
          case 'sqlite':
            return new SqlitePetStore(dataSource, database, dialect, metrics);
          case 'postgres':
            return new PostgresPetStore(dataSource, database, dialect, metrics);
          default:
            return unsupportedDatabase(dialect);
        }
      },
    },
  ],
})
export class PetsModule {}
