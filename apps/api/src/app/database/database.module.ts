import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChosenDialect } from './chosen-dialect';
import { ChosenDialectModule } from './chosen-dialect.module';
import { DatabaseConnection } from './database-connection';

@Global()
@Module({
  imports: [
    ChosenDialectModule,
    TypeOrmModule.forRootAsync({
      imports: [ChosenDialectModule],
      inject: [ChosenDialect],
      useFactory: async ({ dialect }: ChosenDialect) => ({
        ...(await dialect.options()),
        // The features' entities, from their modules' TypeOrmModule.forFeature.
        autoLoadEntities: true,
        // DatabaseConnection connects, and keeps trying, so that an unreachable database never stops the start.
        manualInitialization: true,
      }),
    }),
  ],
  providers: [
    {
      provide: DatabaseConnection,
      inject: [DataSource, ChosenDialect],
      useFactory: (dataSource: DataSource, { dialect }: ChosenDialect) => new DatabaseConnection(dataSource, dialect),
    },
  ],
  exports: [ChosenDialectModule, DatabaseConnection],
})
export class DatabaseModule {}
