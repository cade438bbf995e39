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
import type { PetSql } from './sql/pet-sql';
import { postgresPetSql } from './sql/postgres-pet-sql';
import { sqlitePetSql } from './sql/sqlite-pet-sql';

/** The one choice of database, made once: nothing above the SQL asks which is in use. */
function petSqlOf(dataSource: DataSource, database: DatabaseConnection, dialect: ChosenDialect['dialect']): PetSql {
  switch (dialect.kind) {
    case 'sqlite':
      return sqlitePetSql(dataSource, dialect, database);
    case 'postgres':
      return postgresPetSql(dataSource, dialect);
    default:
      return unsupportedDatabase(dialect);
  }
}

@Module({
  controllers: [PetsController],
  providers: [
    PetsService,
    IdempotencyKeyPurge,
    NameKeyBackfill,
    {
      provide: PetStore,
      inject: [DataSource, DatabaseConnection, ChosenDialect, Metrics],
      useFactory: (dataSource: DataSource, database: DatabaseConnection, { dialect }: ChosenDialect, metrics: Metrics) =>
        new PetStore(database, metrics, petSqlOf(dataSource, database, dialect)),
    },
  ],
})
export class PetsModule {}
