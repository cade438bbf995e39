import type { DataSource, QueryRunner } from 'typeorm';
import type { DatabaseKind } from './database-kind';

/**
 * One value per database, for the lines that differ where no dialect is at hand (a migration, a transaction of the
 * admin commands): every database must be named. The kind is TypeORM's `options.type`, which names the databases as
 * DatabaseKind does; no dialect is at hand here, as the dialects import the migrations.
 */
export function perDatabase<T>(on: DataSource | QueryRunner, values: Readonly<Record<DatabaseKind, T>>): T {
  const type = ('connection' in on ? on.connection : on).options.type;
  if (!Object.hasOwn(values, type)) throw new Error(`Unsupported database: ${type}`);
  return values[type as DatabaseKind];
}
