import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseConnection } from '../database/database-connection';
import { DatabaseDialect } from '../database/database-dialect';
import { SqliteDialect } from '../database/sqlite/sqlite.dialect';
import { Metrics } from '../metrics/metrics';
import { IdempotencyKeyPurge } from './idempotency/idempotency-key-purge';
import { PetStore } from './pet-store';
import { PetsController } from './pets.controller';
import { PetsService } from './pets.service';
import { PostgresPetStore } from './stores/postgres-pet-store';
import { SqlitePetStore } from './stores/sqlite-pet-store';

@Module({
  controllers: [PetsController],
  providers: [
    PetsService,
    IdempotencyKeyPurge,
    {
      // The one choice of store, made once: nothing above it asks which database is in use.
      provide: PetStore,
      inject: [DataSource, DatabaseConnection, DatabaseDialect, Metrics],
      useFactory: (dataSource: DataSource, database: DatabaseConnection, dialect: DatabaseDialect, metrics: Metrics): PetStore =>
        dialect instanceof SqliteDialect
          ? new SqlitePetStore(dataSource, database, dialect, metrics)
          : new PostgresPetStore(dataSource, database, metrics),
    },
  ],
})
export class PetsModule {}
