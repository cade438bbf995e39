import type { DataSource, QueryRunner } from 'typeorm';
import { type DatabaseKind, isDatabaseKind } from './database-kind';

/**
 * One value per database, for the lines that differ where no dialect is at hand (a migration, a transaction of the
 * admin commands): every database must be named. No dialect is at hand here, as the dialects import the migrations;
 * the database is TypeORM's `options.type`, which a dialect's options set to its kind (OptionsOf), checked here.
 */
export function perDatabase<T>(on: DataSource | QueryRunner, values: Readonly<Record<DatabaseKind, T>>): T {
  const { type } = ('connection' in on ? on.connection : on).options;
  if (!isDatabaseKind(type)) throw new Error(`Unsupported database: ${type}`);
  return values[type];
}
