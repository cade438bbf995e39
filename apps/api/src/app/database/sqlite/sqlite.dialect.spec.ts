import { DataSource } from 'typeorm';
import { completeNameKeys } from '../migrations/complete-name-keys';
import { MigrationProgress, progressOf, reportProgress } from '../migrations/migration-progress';
import { fillShortNameIndex } from '../migrations/short-name-index';
import { type SqliteConfig, SqliteDialect } from './sqlite.dialect';

jest.mock('../migrations/short-name-index', () => ({ fillShortNameIndex: jest.fn() }));
jest.mock('../migrations/complete-name-keys', () => ({ completeNameKeys: jest.fn() }));
// Jest's fake timers leave node:timers/promises real (they patch it only when faking Node's own global, not a test's):
// its sleep goes through the test's setTimeout instead, which they fake.
jest.mock('node:timers/promises', () => ({
  ...jest.requireActual('node:timers/promises'),
  setTimeout: (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
}));

const SWITCH_TO_WAL = 'PRAGMA journal_mode = WAL';

const dialect = (connectTimeoutMs = 5_000) =>
  new SqliteDialect({ type: 'sqlite', path: ':memory:', poolSize: 1, connectTimeoutMs, statementTimeoutMs: 4_000 } as SqliteConfig);

/**
 * A stand-in for TypeORM's DataSource (its prototype, so that progressOf knows it for one) whose file reports
 * `journalMode` and `synchronous`; the switch to WAL fails with each of `walRefusals` in turn before it answers.
 */
function file(journalMode: string, synchronous: number, walRefusals: Error[] = []) {
  const query = jest.fn(async (sql: string) => {
    if (sql === SWITCH_TO_WAL) {
      const refusal = walRefusals.shift();
      if (refusal) throw refusal;
      return [{ journal_mode: journalMode }];
    }
    if (sql === 'PRAGMA journal_mode') return [{ journal_mode: journalMode }];
    if (sql === 'PRAGMA synchronous') return [{ synchronous }];
    return [];
  });
  const runMigrations = jest.fn();
  const dataSource: DataSource = Object.assign(Object.create(DataSource.prototype), { query, runMigrations });
  const walAsks = () => query.mock.calls.filter(([sql]) => sql === SWITCH_TO_WAL).length;
  return { dataSource, query, runMigrations, walAsks };
}

const sqliteError = (code: string) => Object.assign(new Error(`${code}: database is locked`), { code });

/** What `promise` came to so far: 'pending', 'resolved', or the error it was rejected with. */
function outcomeOf(promise: Promise<unknown>): () => unknown {
  let outcome: unknown = 'pending';
  promise.then(
    () => (outcome = 'resolved'),
    (error: unknown) => (outcome = error),
  );
  return () => outcome;
}

describe(SqliteDialect.name, () => {
  describe('options', () => {
    it('hands TypeORM a driver whose verbose mode is the driver itself, so that no statement captures a stack trace', async () => {
      const { default: sqlite3 } = await import('sqlite3');
      const { driver } = await dialect().options();
      expect(driver.verbose()).toBe(driver);
      expect(driver.verbose()).not.toBe(sqlite3);
      expect(driver.Database).toBe(sqlite3.Database);
    });

    it('opens the configured file without TypeORM switching it to WAL, and waits for a lock as long as the connect timeout', async () => {
      expect(await dialect(2_500).options()).toMatchObject({ type: 'sqlite', database: ':memory:', enableWAL: false, busyTimeout: 2_500 });
    });
  });

  describe('ensureDurability', () => {
    it.each(['wal', 'memory'])('accepts journal_mode=%s with synchronous=FULL, after setting both and reading them back', async (journalMode) => {
      const { dataSource, query } = file(journalMode, 2);
      await expect(dialect().ensureDurability(dataSource)).resolves.toBe(`SQLite, journal_mode=${journalMode}, synchronous=FULL`);
      expect(query.mock.calls.map(([sql]) => sql)).toEqual([SWITCH_TO_WAL, 'PRAGMA synchronous = FULL', 'PRAGMA journal_mode', 'PRAGMA synchronous']);
    });

    it.each([
      ['delete', 2],
      ['wal', 1],
      ['memory', 0],
    ])('refuses journal_mode=%s with synchronous=%s', async (journalMode, synchronous) => {
      const { dataSource } = file(journalMode, synchronous);
      await expect(dialect().ensureDurability(dataSource)).rejects.toThrow(
        new Error(`SQLite durability not in force: journal_mode=${journalMode}, synchronous=${synchronous}`),
      );
    });

    describe('when the switch to WAL fails', () => {
      beforeEach(() => jest.useFakeTimers());
      afterEach(() => jest.useRealTimers());

      it('asks again every 10 ms while the file is busy, until it answers', async () => {
        const { dataSource, walAsks } = file('wal', 2, [sqliteError('SQLITE_BUSY'), sqliteError('SQLITE_BUSY')]);
        const outcome = outcomeOf(dialect().ensureDurability(dataSource));
        await jest.advanceTimersByTimeAsync(9);
        expect({ asks: walAsks(), outcome: outcome() }).toEqual({ asks: 1, outcome: 'pending' });
        await jest.advanceTimersByTimeAsync(1);
        expect({ asks: walAsks(), outcome: outcome() }).toEqual({ asks: 2, outcome: 'pending' });
        await jest.advanceTimersByTimeAsync(10);
        expect({ asks: walAsks(), outcome: outcome() }).toEqual({ asks: 3, outcome: 'resolved' });
      });

      it('gives up with SQLITE_BUSY once the connect timeout is over, even when the file would answer just after', async () => {
        const busy = sqliteError('SQLITE_BUSY');
        // Busy at 0, 10 and 20 ms; asked at 30 ms, it would answer.
        const { dataSource, walAsks } = file('wal', 2, [busy, busy, busy]);
        const outcome = outcomeOf(dialect(20).ensureDurability(dataSource));
        await jest.advanceTimersByTimeAsync(19);
        expect({ asks: walAsks(), outcome: outcome() }).toEqual({ asks: 2, outcome: 'pending' });
        // At the deadline exactly, the third refusal is the last.
        await jest.advanceTimersByTimeAsync(1);
        expect({ asks: walAsks(), outcome: outcome() }).toEqual({ asks: 3, outcome: busy });
        await jest.advanceTimersByTimeAsync(100);
        expect(walAsks()).toBe(3);
      });

      it('fails at once, without asking again, with any error other than SQLITE_BUSY', async () => {
        const corrupt = sqliteError('SQLITE_CORRUPT');
        const { dataSource, walAsks } = file('wal', 2, [corrupt]);
        const outcome = outcomeOf(dialect().ensureDurability(dataSource));
        await jest.advanceTimersByTimeAsync(100);
        expect({ asks: walAsks(), outcome: outcome() }).toEqual({ asks: 1, outcome: corrupt });
      });
    });
  });

  describe('migrate', () => {
    let steps: string[];
    beforeEach(() => {
      steps = [];
      jest.mocked(fillShortNameIndex).mockImplementation(async () => void steps.push('fillShortNameIndex'));
      jest.mocked(completeNameKeys).mockImplementation(async () => steps.push('completeNameKeys'));
    });

    /** A file whose statements and migrations are logged in `steps`; ROLLBACK fails with `rollbackError` if given. */
    function logged(runMigrations: () => Promise<unknown>, rollbackError?: Error) {
      const stored = file('wal', 2);
      stored.query.mockImplementation(async (sql: string) => {
        steps.push(sql);
        if (sql === 'ROLLBACK' && rollbackError) throw rollbackError;
        return [];
      });
      stored.runMigrations.mockImplementation(async () => {
        steps.push('runMigrations');
        return runMigrations();
      });
      return stored;
    }

    it('runs the migrations in a transaction that holds the write lock from the start, then fills the rows', async () => {
      const applied = [{ name: 'CreatePets1764115200000' }];
      const { dataSource, runMigrations } = logged(async () => applied);
      await expect(dialect().migrate(dataSource)).resolves.toBe(applied);
      expect(runMigrations).toHaveBeenCalledWith({ transaction: 'none' });
      expect(steps).toEqual(['BEGIN IMMEDIATE', 'runMigrations', 'COMMIT', 'fillShortNameIndex', 'completeNameKeys']);
      expect(fillShortNameIndex).toHaveBeenCalledWith(dataSource);
      expect(completeNameKeys).toHaveBeenCalledWith(dataSource);
    });

    it('rolls the transaction back and fails with the migration\'s error when a migration fails', async () => {
      const failure = new Error('near "CREAT": syntax error');
      const { dataSource } = logged(() => Promise.reject(failure));
      await expect(dialect().migrate(dataSource)).rejects.toBe(failure);
      expect(steps).toEqual(['BEGIN IMMEDIATE', 'runMigrations', 'ROLLBACK']);
    });

    it('fails with the migration\'s error, not the rollback\'s, when the rollback fails too', async () => {
      const failure = new Error('near "CREAT": syntax error');
      const { dataSource } = logged(() => Promise.reject(failure), new Error('cannot rollback - no transaction is active'));
      await expect(dialect().migrate(dataSource)).rejects.toBe(failure);
      expect(steps).toEqual(['BEGIN IMMEDIATE', 'runMigrations', 'ROLLBACK']);
    });

    it('makes the steps run on the data source report to the progress it is given', async () => {
      const { dataSource } = logged(async () => []);
      const progress = new MigrationProgress();
      await dialect().migrate(dataSource, progress);
      expect(progressOf(dataSource)).toBe(progress);
    });

    it('leaves the progress the data source reports to as it was when given none', async () => {
      const { dataSource } = logged(async () => []);
      const progress = new MigrationProgress();
      reportProgress(dataSource, progress);
      await dialect().migrate(dataSource);
      expect(progressOf(dataSource)).toBe(progress);
    });
  });
});
