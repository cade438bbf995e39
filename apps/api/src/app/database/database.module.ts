import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseConnection } from './database-connection';
import { DatabaseDialect } from './database-dialect';
import { DatabaseDialectModule } from './database-dialect.module';

@Global()
@Module({
  imports: [
    DatabaseDialectModule,
    TypeOrmModule.forRootAsync({
      imports: [DatabaseDialectModule],
      inject: [DatabaseDialect],
      useFactory: async (dialect: DatabaseDialect) => ({
        ...(await dialect.options()),
        // The features' entities, from their modules' TypeOrmModule.forFeature.
        autoLoadEntities: true,
        // DatabaseConnection connects, and keeps trying, so that an unreachable database never stops the start.
        manualInitialization: true,
      }),
    }),
  ],
  providers: [DatabaseConnection],
  exports: [DatabaseDialectModule, DatabaseConnection],
})
export class DatabaseModule {}
