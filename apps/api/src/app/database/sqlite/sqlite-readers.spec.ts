import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { type EndStatementSpan, statementSpans } from '../../observability/statement-spans';
import { SqliteReaders } from './sqlite-readers';

// Tracing is off unless a test turns it on: statementSpans answers undefined, as it does without a tracer.
jest.mock('../../observability/statement-spans', () => ({
  ...jest.requireActual('../../observability/statement-spans'),
  statementSpans: jest.fn(),
}));

/** A writing connection to the file, as the service's own. */
function writer(path: string) {
  const db = new sqlite3.Database(path);
  const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (error) => (error ? reject(error) : resolve())));
  return { exec, close: () => new Promise((resolve) => db.close(resolve)) };
}

describe(SqliteReaders.name, () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-readers-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A WAL file made with `schema` by a writing connection, and `readers` read-only connections to it (two unless told). */
  async function openFile(schema: string, readers = 2) {
    const path = join(dir, 'file.sqlite');
    const db = writer(path);
    await db.exec(`PRAGMA journal_mode = WAL; ${schema}`);
    return { db, sut: await SqliteReaders.open(path, readers, 1_000) };
  }

  it('answers a statement that fails to prepare with its error, keeps its connections, and prepares it again later', async () => {
    const { db, sut } = await openFile('CREATE TABLE a (x INTEGER)');
    try {
      // More reads than connections, all failing: each must be answered, none may take a connection with it.
      const failures = await Promise.allSettled(Array.from({ length: 5 }, () => sut.all('SELECT x FROM b', [])));
      expect(failures.map((failure) => failure.status)).toEqual(Array(5).fill('rejected'));
      expect(String((failures[0] as PromiseRejectedResult).reason)).toMatch(/no such table: b/);
      await db.exec('CREATE TABLE b (x INTEGER); INSERT INTO b VALUES (7)');
      const answers = await Promise.all(Array.from({ length: 5 }, () => sut.all<{ x: number }>('SELECT x FROM b', [])));
      expect(answers).toEqual(Array(5).fill([{ x: 7 }]));
    } finally {
      await sut.close();
      await db.close();
    }
  });

  it('sends every read to an idle connection, never behind a slow one on a busy connection', async () => {
    const { db, sut } = await openFile('CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1)');
    try {
      const finished: string[] = [];
      // A recursive count to a few million keeps one connection busy for a while, whatever the machine.
      const slow = sut.all('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) AS c FROM n', []).then(() => finished.push('slow'));
      // Taking turns, the third read would go to the slow one's connection.
      const fast = Array.from({ length: 3 }, () => sut.all('SELECT x FROM a', []).then(() => finished.push('fast')));
      await Promise.all([slow, ...fast]);
      expect(finished).toEqual(['fast', 'fast', 'fast', 'slow']);
    } finally {
      await sut.close();
      await db.close();
    }
  });

  it('answers a statement that prepares but fails when run with its error, and keeps its connection', async () => {
    const { db, sut } = await openFile('CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1)', 1);
    try {
      // abs() of the smallest 64-bit integer overflows only when the statement runs.
      await expect(sut.all('SELECT abs(-9223372036854775808) AS y', [])).rejects.toThrow('SQLITE_ERROR: integer overflow');
      await expect(sut.all('SELECT x FROM a', [])).resolves.toEqual([{ x: 1 }]);
    } finally {
      await sut.close();
      await db.close();
    }
  });

  it('prepares a statement once per connection, however often it runs there', async () => {
    const { db, sut } = await openFile('CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1)', 1);
    const prepare = jest.spyOn(sqlite3.Database.prototype, 'prepare');
    try {
      await expect(sut.all('SELECT x FROM a WHERE x = ?', [1])).resolves.toEqual([{ x: 1 }]);
      await expect(sut.all('SELECT x FROM a WHERE x = ?', [2])).resolves.toEqual([]);
      await expect(sut.all('SELECT count(*) AS n FROM a', [])).resolves.toEqual([{ n: 1 }]);
      await expect(sut.all('SELECT x FROM a WHERE x = ?', [1])).resolves.toEqual([{ x: 1 }]);
      expect(prepare.mock.calls.map(([sql]) => sql)).toEqual(['SELECT x FROM a WHERE x = ?', 'SELECT count(*) AS n FROM a']);
    } finally {
      await sut.close();
      await db.close();
    }
  });

  it('closes every connection, and resolves once they are closed', async () => {
    const { db, sut } = await openFile('CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1)');
    await sut.all('SELECT x FROM a', []);
    const closed: sqlite3.Database[] = [];
    let bothClosed!: () => void;
    const nativeCloses = new Promise<void>((resolve) => (bothClosed = resolve));
    const close = sqlite3.Database.prototype.close;
    jest.spyOn(sqlite3.Database.prototype, 'close').mockImplementation(function (this: sqlite3.Database, callback?: (error: Error | null) => void) {
      return close.call(this, (error: Error | null) => {
        callback?.(error);
        if (closed.push(this) === 2) bothClosed();
      });
    });
    try {
      let resolved = false;
      const closing = sut.close().then(() => (resolved = true));
      // Whichever comes first, so that a close that never resolves fails here rather than at the test's timeout.
      await Promise.race([closing, nativeCloses]);
      await new Promise((resolve) => setImmediate(resolve));
      expect({ resolved, closed: closed.length }).toEqual({ resolved: true, closed: 2 });
      await expect(sut.all('SELECT 1 AS one', [])).rejects.toThrow('SQLITE_MISUSE: Database is closed');
    } finally {
      await db.close();
    }
  });

  describe('when tracing', () => {
    let spans: Array<{ sql: string; error?: Error | null }>;
    beforeEach(() => {
      spans = [];
      jest.mocked(statementSpans).mockReturnValueOnce((sql): EndStatementSpan => {
        const span: { sql: string; error?: Error | null } = { sql };
        spans.push(span);
        return (error) => (span.error = error);
      });
    });

    it('spans each statement, ending the span when it answers and with the error of one that fails', async () => {
      const { db, sut } = await openFile('CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1)');
      try {
        await expect(sut.all('SELECT x FROM a', [])).resolves.toEqual([{ x: 1 }]);
        await expect(sut.all('SELECT x FROM b', [])).rejects.toThrow('no such table: b');
        expect(spans).toEqual([
          { sql: 'SELECT x FROM a', error: null },
          { sql: 'SELECT x FROM b', error: expect.objectContaining({ message: expect.stringContaining('no such table: b') }) },
        ]);
      } finally {
        await sut.close();
        await db.close();
      }
    });
  });
});
