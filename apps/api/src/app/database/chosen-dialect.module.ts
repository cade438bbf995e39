import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { ChosenDialect, dialectFor } from './chosen-dialect';

/**
 * The one dialect of the app, made once from the configuration: TypeORM's options come from the same instance that the
 * stores and DatabaseConnection use, so that what it learns while connecting (the pool's connections) is theirs too.
 */
@Module({
  providers: [
    {
      provide: ChosenDialect,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => new ChosenDialect(dialectFor(config.get('database', { infer: true }))),
    },
  ],
  exports: [ChosenDialect],
})
export class ChosenDialectModule {}
