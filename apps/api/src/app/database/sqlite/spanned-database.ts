import type sqlite3 from 'sqlite3';
import type { StartStatementSpan } from '../../observability/statement-spans';

type Sqlite3Database = typeof sqlite3.Database;
type Callback = (this: unknown, error: Error | null, ...results: unknown[]) => void;

/**
 * sqlite3's Database with a span for each statement it runs with a callback. TypeORM runs every statement through
 * `all` or `run` with one, so the writes, the stored-key lookups and the readiness probe are all traced there.
 */
export function spannedDatabase(Database: Sqlite3Database, startSpan: StartStatementSpan): Sqlite3Database {
  const spanning = (method: 'all' | 'run') =>
    function (this: InstanceType<Sqlite3Database>, sql: string, ...rest: unknown[]) {
      const callback = rest.at(-1);
      const end = typeof callback === 'function' ? startSpan(sql) : undefined;
      if (end) {
        // A function, not an arrow: sqlite3 hands `run`'s result (lastID, changes) to it as `this`.
        rest[rest.length - 1] = function (this: unknown, error: Error | null, ...results: unknown[]) {
          end(error);
          return (callback as Callback).call(this, error, ...results);
        };
      }
      return (Database.prototype[method] as (...args: unknown[]) => unknown).call(this, sql, ...rest);
    };
  class SpannedDatabase extends Database {}
  Object.assign(SpannedDatabase.prototype, { all: spanning('all'), run: spanning('run') });
  return SpannedDatabase;
}
