import type { DataSource, Migration } from 'typeorm';
import type { DatabaseKind, OptionsOf } from './database-kind';
import type { Heartbeat } from './database-watch';
import type { MigrationProgress } from './migrations/migration-progress';

/**
 * What every dialect implements (sqlite/sqlite.dialect.ts, postgres/postgres.dialect.ts): what differs between the
 * databases below the stores, that is how to connect, what makes a commit durable, and how several processes migrate
 * one database without stepping on each other. The one in use is chosen once, from the configuration
 * (chosen-dialect.ts, which also holds the union of them that code switches on).
 */
export abstract class DatabaseDialect<K extends DatabaseKind = DatabaseKind> {
  /** Which database: what a switch over the dialects (chosen-dialect.ts) tells them apart by. */
  abstract readonly kind: K;

  /** TypeORM's settings, whose `type` is this dialect's kind; the schema always comes from the migrations. */
  abstract options(): Promise<OptionsOf<K>>;

  /** Makes sure a commit means durable, and says how, for the start-up log; throws if it cannot. */
  abstract ensureDurability(dataSource: DataSource): Promise<string>;

  /**
   * Brings the schema up to date; safe when several processes start at once, and resumes where an interrupted run
   * stopped. Long steps report to `progress` (rows done of rows to do).
   */
  abstract migrate(dataSource: DataSource, progress?: MigrationProgress): Promise<Migration[]>;

  /**
   * After a failed attempt to connect: whether the dialect changed its options for what the failure says about the
   * server (e.g. a pooler that refuses some connection settings), so that the next attempt may go at once. What it
   * changed is returned, for the log.
   */
  adaptTo(_dataSource: DataSource, _failure: unknown): string | undefined {
    return undefined;
  }

  /**
   * A check of a database reached over the network, on a connection of its own, that DatabaseConnection runs to know
   * within a second or two when it goes silent; none for a local file, which cannot.
   */
  heartbeat(): Heartbeat | undefined {
    return undefined;
  }

  /** Drops the connections in use and idle, once the database went silent: they may never fail by themselves. */
  evictConnections(): void {
    // Nothing to drop where there is no network between the service and its data.
  }

  /** The longest one operation may take before its request gets a 503; none where the dialect bounds its own waits. */
  operationDeadlineMs(): number | undefined {
    return undefined;
  }

  /**
   * Connects once, adapting as adaptTo says, for one-shot commands (`npm run keys`) that have no retry loop of
   * their own: they must work through PgBouncer as the service does.
   */
  async connectOnce(dataSource: DataSource): Promise<void> {
    for (;;) {
      try {
        await dataSource.initialize();
        return;
      } catch (error) {
        if (!this.adaptTo(dataSource, error)) throw error;
      }
    }
  }
}
