import { Logger } from '@nestjs/common';
import { nameSearchKey } from '@petstore/contract';
import { Socket } from 'node:net';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { migrations as ALL_MIGRATIONS } from '../../src/app/database/migrations';
import { buildConcurrently } from '../../src/app/database/migrations/concurrent-indexes';
import { PostgresDialect } from '../../src/app/database/postgres/postgres.dialect';
import { until } from '../support/until';
import { createTestDatabase, directUrl, queryDirectly, type TestDatabase } from '../support/test-database';

/** A test migration: never reverted here. */
abstract class OneWay implements MigrationInterface {
  abstract up(runner: QueryRunner): Promise<void>;
  async down(): Promise<void> {
    throw new Error('the test migrations are not reverted');
  }
}

/** What the test migrations saw, in the order they ran. */
const seen: Array<Record<string, unknown>> = [];

class First1000000000001 extends OneWay {
  name = 'First1000000000001';
  async up(runner: QueryRunner) {
    const [session] = await runner.query(
      "SELECT current_setting('statement_timeout') AS statement, current_setting('idle_in_transaction_session_timeout') AS idle, current_setting('application_name') AS application",
    );
    seen.push({ migration: 'first', ...session });
    await runner.query('CREATE TABLE marks (x int)');
    // What the search keys' completion after the migrations reads.
    await runner.query('CREATE TABLE pets (id bigserial PRIMARY KEY, name varchar(100), name_key varchar(400))');
  }
}

/**
 * As the service's indexes built CONCURRENTLY are (concurrent-indexes.ts): no transaction may hold the build, and
 * instances that run it at once take turns (two builds on one table that start together deadlock, and one is cancelled).
 */
class Concurrent1000000000002 extends OneWay {
  name = 'Concurrent1000000000002';
  transaction = false as const;
  async up(runner: QueryRunner) {
    const [{ recorded }] = await runner.query("SELECT count(*)::int AS recorded FROM migrations WHERE name = 'First1000000000001'");
    seen.push({ migration: 'concurrent', firstRecorded: recorded });
    await buildConcurrently(runner, 'pets_name_test', 'ON pets (name)');
  }
}

/** Outside any transaction, and recorded meanwhile by another instance that ran it too, as it does here itself. */
class RecordedMeanwhile1000000000002 extends OneWay {
  name = 'RecordedMeanwhile1000000000002';
  transaction = false as const;
  async up(runner: QueryRunner) {
    await runner.query("INSERT INTO migrations (timestamp, name) VALUES (1000000000002, 'RecordedMeanwhile1000000000002')");
  }
}

class Last1000000000003 extends OneWay {
  name = 'Last1000000000003';
  async up(runner: QueryRunner) {
    seen.push({ migration: 'last' });
    await runner.query('INSERT INTO marks VALUES (1)');
  }
}

class Failing1000000000004 extends OneWay {
  name = 'Failing1000000000004';
  async up(runner: QueryRunner) {
    await runner.query('CREATE TABLE never_kept (x int)');
    throw new Error('this migration fails');
  }
}

// The dialect's migration against a real server: several instances at once, the lock that orders them, a migration
// outside any transaction, its own sessions without the requests' timeouts; and the durability it checks. On the
// server itself in every leg, as docs/operations.md has migrations run beside a pooler (DATABASE_MIGRATION_URL): what
// this reads of sessions and of a database's settings would otherwise be the pooler's.
describe(`${PostgresDialect.name} on a server`, () => {
  let database: TestDatabase;
  let opened: DataSource[];

  beforeEach(async () => {
    database = await createTestDatabase();
    opened = [];
    seen.length = 0;
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    for (const dataSource of opened) if (dataSource.isInitialized) await dataSource.destroy();
    await database.drop();
  });

  /** An instance's connection, knowing `migrations` (the product's by default); `migrationUrl` as DATABASE_MIGRATION_URL. */
  async function instance({ migrations = ALL_MIGRATIONS as unknown[], migrationUrl }: { migrations?: unknown[]; migrationUrl?: string } = {}) {
    const dialect = new PostgresDialect({ type: 'postgres', url: directUrl(database), migrationUrl, poolSize: 2, connectTimeoutMs: 5_000, statementTimeoutMs: 5_000 });
    const dataSource = new DataSource({ ...(await dialect.options()), migrations: migrations as Array<new () => MigrationInterface> });
    opened.push(dataSource);
    await dialect.connectOnce(dataSource);
    return { dialect, dataSource };
  }
  const recorded = async (on: TestDatabase = database) => (await queryDirectly<{ name: string }>(on, 'SELECT name FROM migrations ORDER BY id')).map(({ name }) => name);
  /** The sessions on the test database that call themselves `application`. */
  const sessionsOf = async (application: string) =>
    (await queryDirectly<{ sessions: number }>(database, 'SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [application]))[0].sessions;
  /** How many of the data sources `destroy` was called on were a migration's (pg-pool would close them only when idle 10 s). */
  const migrationSourcesDestroyed = (destroy: jest.SpyInstance) =>
    destroy.mock.contexts.filter((source) => ((source as DataSource).options as { applicationName?: string }).applicationName === 'petstore-migrate').length;
  const TEST_MIGRATIONS = [First1000000000001, Concurrent1000000000002, Last1000000000003];

  it('migrates once when three instances start at once, each migration recorded once and in order', async () => {
    const instances = await Promise.all([instance(), instance(), instance()]);
    const applied = await Promise.all(instances.map(({ dialect, dataSource }) => dialect.migrate(dataSource)));
    const names = ALL_MIGRATIONS.map(({ name }) => name);
    expect(await recorded()).toEqual(names);
    // Each ran on one instance, or (outside any transaction, safe to run twice) on several.
    expect([...new Set(applied.flat().map(({ name }) => name))].sort()).toEqual([...names].sort());
    expect(await instances[0].dialect.migrate(instances[0].dataSource)).toEqual([]);
  });

  it('runs a migration that no transaction may hold after the ones before it committed, then the rest, on sessions without the timeouts', async () => {
    const [a, b] = await Promise.all([instance({ migrations: TEST_MIGRATIONS }), instance({ migrations: TEST_MIGRATIONS })]);
    await Promise.all([a.dialect.migrate(a.dataSource), b.dialect.migrate(b.dataSource)]);
    expect(await recorded()).toEqual(TEST_MIGRATIONS.map(({ name }) => name));
    expect(seen.filter(({ migration }) => migration === 'first')).toEqual([{ migration: 'first', statement: '0', idle: '0', application: 'petstore-migrate' }]);
    expect(seen.filter(({ migration }) => migration === 'concurrent').every(({ firstRecorded }) => firstRecorded === 1)).toBe(true);
    expect(seen.filter(({ migration }) => migration === 'last')).toHaveLength(1);
    expect(await queryDirectly(database, 'SELECT x FROM marks')).toEqual([{ x: 1 }]);
  });

  it('records a migration outside any transaction once when another instance recorded it while this one ran it too', async () => {
    const { dialect, dataSource } = await instance({ migrations: [First1000000000001, RecordedMeanwhile1000000000002, Last1000000000003] });
    await dialect.migrate(dataSource);
    expect(await recorded()).toEqual(['First1000000000001', 'RecordedMeanwhile1000000000002', 'Last1000000000003']);
  });

  it('keeps a migration session alive with TCP keepalive, and closes its connections when done', async () => {
    const keepAlive = jest.spyOn(Socket.prototype, 'setKeepAlive');
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const { dialect, dataSource } = await instance({ migrations: TEST_MIGRATIONS });
    keepAlive.mockClear();
    const destroyed = jest.spyOn(DataSource.prototype, 'destroy');
    await dialect.migrate(dataSource);
    expect(keepAlive).toHaveBeenCalledWith(true, 10_000);
    // On the server itself, nothing to warn of.
    expect(warn).not.toHaveBeenCalled();
    expect(migrationSourcesDestroyed(destroyed)).toBe(1);
  });

  it('leaves nothing of a migration that fails, nor of the ones before it in its transaction, and closes its connections', async () => {
    const { dialect, dataSource } = await instance({ migrations: [First1000000000001, Failing1000000000004] });
    const destroyed = jest.spyOn(DataSource.prototype, 'destroy');
    await expect(dialect.migrate(dataSource)).rejects.toThrow('this migration fails');
    expect(await queryDirectly(database, "SELECT to_regclass('marks') AS marks, to_regclass('never_kept') AS never")).toEqual([{ marks: null, never: null }]);
    expect(migrationSourcesDestroyed(destroyed)).toBe(1);
  });

  it("waits while another instance holds the migration lock, then finds what it left", async () => {
    const { dialect, dataSource } = await instance({ migrations: TEST_MIGRATIONS });
    const other = dataSource.createQueryRunner();
    await other.connect();
    await other.startTransaction();
    await other.query('SELECT pg_advisory_xact_lock(7253001)');
    const migrating = dialect.migrate(dataSource);
    await until(
      () => queryDirectly(database, "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = 7253001 AND NOT granted"),
      (waiting) => waiting.length === 1,
      'the migration waiting for the lock',
    );
    expect(seen).toEqual([]);
    await other.commitTransaction();
    await other.release();
    await migrating;
    expect(await recorded()).toEqual(TEST_MIGRATIONS.map(({ name }) => name));
  });

  it('migrates the database DATABASE_MIGRATION_URL names, when given', async () => {
    const elsewhere = await createTestDatabase();
    try {
      const { dialect, dataSource } = await instance({ migrations: TEST_MIGRATIONS, migrationUrl: directUrl(elsewhere) });
      await dialect.migrate(dataSource);
      expect(await recorded(elsewhere)).toEqual(TEST_MIGRATIONS.map(({ name }) => name));
      expect(await queryDirectly(database, "SELECT to_regclass('migrations') AS migrations")).toEqual([{ migrations: null }]);
    } finally {
      await elsewhere.drop();
    }
  });

  it('says in the log that a pooler bounds each step when the migration sessions had to drop their settings', async () => {
    const { dialect, dataSource } = await instance({ migrations: TEST_MIGRATIONS });
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    // As PgBouncer answers the migration's first connection.
    jest.spyOn(DataSource.prototype, 'initialize').mockRejectedValueOnce(new Error('unsupported startup parameter: statement_timeout'));
    await dialect.migrate(dataSource);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Migrating through a pooler.*Set DATABASE_MIGRATION_URL to the PostgreSQL server itself\.$/));
    expect(warn.mock.contexts).toEqual([expect.objectContaining({ context: 'Migration' })]);
  });

  it('completes the search keys an older version left out, after migrating', async () => {
    const { dialect, dataSource } = await instance();
    await dialect.migrate(dataSource);
    await dataSource.query("INSERT INTO pets (name, category_id, status) VALUES ('Ὀδυσσεύς', 1, 'available')");
    await dialect.migrate(dataSource);
    expect(await dataSource.query('SELECT name_key FROM pets')).toEqual([{ name_key: nameSearchKey('Ὀδυσσεύς') }]);
  });

  it('reports the commit it relies on, and refuses a database whose commits are not durable', async () => {
    const { dialect, dataSource } = await instance();
    expect(await dialect.ensureDurability(dataSource)).toBe('PostgreSQL, synchronous_commit=on');
    expect(await dialect.pool(dataSource)?.query("SELECT current_setting('application_name') AS name")).toMatchObject({ rows: [{ name: 'petstore' }] });
    await queryDirectly(database, `ALTER DATABASE ${new URL(database.url).pathname.slice(1)} SET synchronous_commit = off`);
    const later = await instance();
    await expect(later.dialect.ensureDurability(later.dataSource)).rejects.toThrow('PostgreSQL synchronous_commit is off: a 201 would not mean durable');
  });

  it('watches the server on a connection apart from the pool, named for what it does', async () => {
    const { dialect } = await instance();
    const heartbeat = dialect.heartbeat();
    try {
      expect(await heartbeat?.beat(5_000)).toEqual({ writable: true });
      expect(await sessionsOf('petstore-heartbeat')).toBe(1);
    } finally {
      heartbeat?.stop();
    }
  });
});
