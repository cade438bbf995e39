import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { DatabaseDialect } from './database-dialect';
import { dialectFor } from './dialects';

/**
 * The one dialect of the app, made once from the configuration: TypeORM's options come from the same instance that the
 * stores and DatabaseConnection use, so that what it learns while connecting (the pool's connections) is theirs too.
 */
@Module({
  providers: [{ provide: DatabaseDialect, inject: [ConfigService], useFactory: (config: ConfigService<AppConfig, true>) => dialectFor(config.get('database', { infer: true })) }],
  exports: [DatabaseDialect],
})
export class DatabaseDialectModule {}
