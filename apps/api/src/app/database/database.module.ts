import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import sqlite3 from 'sqlite3';
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
        // Passed explicitly so that the build sees the native driver and lists it in dist/apps/api/package.json.
        driver: sqlite3,
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
