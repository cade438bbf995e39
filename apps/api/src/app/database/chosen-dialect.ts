import type { DatabaseConfig } from '../config/app-config';
import type { DatabaseKind } from './database-kind';
import { PostgresDialect } from './postgres/postgres.dialect';
import { SqliteDialect } from './sqlite/sqlite.dialect';

/**
 * Every database the service runs on, a closed union: a place that must tell them apart switches on `kind` and ends
 * in {@link unsupportedDatabase}, so that a database added here fails to compile at each such place until it is
 * handled there.
 */
export type Dialect = SqliteDialect | PostgresDialect;

// The dialects' kinds are exactly the databases perDatabase values are keyed by: a dialect added here without its
// kind in DatabaseKind (or the reverse) does not compile.
type SameKinds = [Dialect['kind']] extends [DatabaseKind] ? ([DatabaseKind] extends [Dialect['kind']] ? true : false) : false;
const sameKinds: SameKinds = true;
void sameKinds;

/** The one choice of the dialect, from the configuration. */
export function dialectFor(database: DatabaseConfig): Dialect {
  switch (database.type) {
    case 'sqlite':
      return new SqliteDialect(database);
    case 'postgres':
      return new PostgresDialect(database);
    default:
      return unsupportedDatabase(database);
  }
}

/**
 * The app's one dialect, as the union to switch on: its DI token (provided by ChosenDialectModule), so that a
 * constructor or factory that injects it gets what its type says, without a cast.
 */
export class ChosenDialect {
  constructor(readonly dialect: Dialect) {}
}

/** The `default` of every switch over the databases: reached only by a value the union does not hold. */
export function unsupportedDatabase(database: never): never {
  throw new Error(`Unsupported database: ${JSON.stringify(database)}`);
}
