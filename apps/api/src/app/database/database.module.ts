import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { PetEntity } from '../pets/pet.entity';
import { DatabaseInitializer } from './database.initializer';
import { migrations } from './migrations';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => ({
        type: 'sqlite',
        database: config.get('database', { infer: true }).path,
        enableWAL: true,
        busyTimeout: 5000,
        entities: [PetEntity],
        migrations,
        // The initializer sets durability first, then runs the migrations; never synchronize.
        migrationsRun: false,
        synchronize: false,
        retryAttempts: 0,
      }),
    }),
  ],
  providers: [DatabaseInitializer],
})
export class DatabaseModule {}
