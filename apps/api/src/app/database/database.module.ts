import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { DatabaseConnection } from './database-connection';
import { dataSourceOptions } from './data-source-options';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: async (config: ConfigService<AppConfig, true>) => ({
        ...(await dataSourceOptions(config.get('database', { infer: true }))),
        // DatabaseConnection connects, and keeps trying, so that an unreachable database never stops the start.
        manualInitialization: true,
      }),
    }),
  ],
  providers: [DatabaseConnection],
  exports: [DatabaseConnection],
})
export class DatabaseModule {}
