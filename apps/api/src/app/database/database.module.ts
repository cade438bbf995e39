import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { DatabaseConnection } from './database-connection';
import { DatabaseDialect } from './database-dialect';
import { dialectFor } from './dialects';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: async (config: ConfigService<AppConfig, true>) => ({
        ...(await dialectFor(config.get('database', { infer: true })).options()),
        // The features' entities, from their modules' TypeOrmModule.forFeature.
        autoLoadEntities: true,
        // DatabaseConnection connects, and keeps trying, so that an unreachable database never stops the start.
        manualInitialization: true,
      }),
    }),
  ],
  providers: [
    { provide: DatabaseDialect, inject: [ConfigService], useFactory: (config: ConfigService<AppConfig, true>) => dialectFor(config.get('database', { infer: true })) },
    DatabaseConnection,
  ],
  exports: [DatabaseDialect, DatabaseConnection],
})
export class DatabaseModule {}
