import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { SqliteReaders } from './sqlite-readers';

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

  /** A WAL file made with `schema` by a writing connection, and two readers of it. */
  async function openFile(schema: string) {
    const path = join(dir, 'file.sqlite');
    const db = writer(path);
    await db.exec(`PRAGMA journal_mode = WAL; ${schema}`);
    return { db, sut: await SqliteReaders.open(path, 2, 1_000) };
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
});
