import sqlite3 from 'sqlite3';
import type { StartStatementSpan } from '../../observability/statement-spans';
import { spannedDatabase } from './spanned-database';

describe(spannedDatabase.name, () => {
  let db: sqlite3.Database;
  let spans: Array<{ sql: string; error?: Error | null }>;
  const startSpan: StartStatementSpan = (sql) => {
    const span: { sql: string; error?: Error | null } = { sql };
    spans.push(span);
    return (error) => (span.error = error);
  };

  beforeEach(async () => {
    spans = [];
    const Database = spannedDatabase(sqlite3.Database, startSpan);
    db = await new Promise((resolve, reject) => {
      const opened: sqlite3.Database = new Database(':memory:', (error) => (error ? reject(error) : resolve(opened)));
    });
  });
  afterEach(() => new Promise((resolve) => db.close(resolve)));

  const run = (sql: string, parameters: unknown[] = []) =>
    new Promise<{ lastID: number }>((resolve, reject) =>
      db.run(sql, parameters, function (this: sqlite3.RunResult, error: Error | null) {
        if (error) reject(error);
        else resolve({ lastID: this.lastID });
      }),
    );

  it('spans each statement run with a callback, and still hands run\'s result to it as `this`', async () => {
    await run('CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT)');
    await expect(run('INSERT INTO pets (name) VALUES (?), (?)', ['Rex', 'Tom'])).resolves.toEqual({ lastID: 2 });
    const rows = await new Promise((resolve, reject) => db.all('SELECT name FROM pets ORDER BY id', [], (error, found) => (error ? reject(error) : resolve(found))));
    expect(rows).toEqual([{ name: 'Rex' }, { name: 'Tom' }]);
    expect(spans).toEqual([
      { sql: 'CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT)', error: null },
      { sql: 'INSERT INTO pets (name) VALUES (?), (?)', error: null },
      { sql: 'SELECT name FROM pets ORDER BY id', error: null },
    ]);
  });

  it('ends the span of a failed statement with its error', async () => {
    await expect(run('SELECT * FROM missing')).rejects.toThrow('no such table');
    expect(spans).toEqual([{ sql: 'SELECT * FROM missing', error: expect.objectContaining({ message: expect.stringContaining('no such table') }) }]);
  });

  it('spans a statement whose callback follows no parameters, or several given one by one, and hands it the rows', async () => {
    const all = (sql: string, ...parameters: unknown[]) =>
      new Promise((resolve, reject) => db.all(sql, ...parameters, (error: Error | null, rows: unknown[]) => (error ? reject(error) : resolve(rows))));
    await expect(all('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
    await expect(all('SELECT ? AS a, ? AS b', 2, 3)).resolves.toEqual([{ a: 2, b: 3 }]);
    expect(spans).toEqual([
      { sql: 'SELECT 1 AS one', error: null },
      { sql: 'SELECT ? AS a, ? AS b', error: null },
    ]);
  });

  it('starts no span for a statement run without a callback', async () => {
    // In turn, so that the table exists when counted.
    const counted = new Promise((resolve, reject) =>
      db.serialize(() => {
        db.run('CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT)');
        db.all('SELECT 1 AS one');
        db.all('SELECT count(*) AS n FROM pets', (error, rows) => (error ? reject(error) : resolve(rows)));
      }),
    );
    await expect(counted).resolves.toEqual([{ n: 0 }]);
    expect(spans).toEqual([{ sql: 'SELECT count(*) AS n FROM pets', error: null }]);
  });

  it('runs a statement without a span when the tracer has none to give', async () => {
    const Database = spannedDatabase(sqlite3.Database, () => undefined);
    const quiet: sqlite3.Database = await new Promise((resolve, reject) => {
      const opened: sqlite3.Database = new Database(':memory:', (error) => (error ? reject(error) : resolve(opened)));
    });
    await expect(new Promise((resolve, reject) => quiet.all('SELECT 1 AS one', [], (error, rows) => (error ? reject(error) : resolve(rows))))).resolves.toEqual([{ one: 1 }]);
    await new Promise((resolve) => quiet.close(resolve));
  });
});
