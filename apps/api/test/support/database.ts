import { Database } from 'sqlite3';

/** Reads rows straight from the SQLite file, to check what was stored rather than what was answered. */
export function queryDatabase<T = Record<string, unknown>>(path: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const db = new Database(path);
    db.all(sql, params, (error, rows) => {
      db.close();
      if (error) reject(error);
      else resolve(rows as T[]);
    });
  });
}
