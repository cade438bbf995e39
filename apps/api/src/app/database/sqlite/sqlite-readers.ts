import type { Database, Statement } from 'sqlite3';
import { spanned, type StartStatementSpan, statementSpans } from '../../observability/statement-spans';

/**
 * A few read-only connections to the SQLite file, each with its prepared statements. The service's one TypeORM
 * connection serialises every query; WAL lets readers run beside the writer and beside each other, so the reads
 * that make most of the traffic go here and use the thread pool in parallel.
 */
export class SqliteReaders {
  private readonly idle: Database[];
  /** Statements waiting for a connection, first come first served. */
  private readonly waiting: Array<(db: Database) => Promise<void>> = [];
  private readonly prepared = new Map<Database, Map<string, Promise<Statement>>>();

  private constructor(
    private readonly connections: Database[],
    startSpan: StartStatementSpan | undefined,
  ) {
    this.idle = [...connections];
    if (startSpan) {
      const all = this.all.bind(this);
      this.all = <T>(sql: string, parameters: unknown[]) => spanned(startSpan(sql), all<T>(sql, parameters));
    }
  }

  static async open(path: string, count: number, busyTimeoutMs: number): Promise<SqliteReaders> {
    const { default: sqlite3 } = await import('sqlite3');
    const connections = await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<Database>((resolve, reject) => {
            const db: Database = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (error) => (error ? reject(error) : resolve(db)));
          }),
      ),
    );
    for (const db of connections) db.configure('busyTimeout', busyTimeoutMs);
    return new SqliteReaders(connections, statementSpans());
  }

  /**
   * Runs on an idle connection, or on the first to become idle: a statement never queues behind a slow one on a busy
   * connection while another is free, nor holds a thread-pool thread waiting for a connection's lock.
   */
  all<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    return new Promise((resolve, reject) => {
      const run = (db: Database) =>
        this.statement(db, sql).then(
          (statement) => {
            statement.all(parameters, (error: Error | null, rows: T[]) => {
              this.release(db);
              if (error) reject(error);
              else resolve(rows);
            });
          },
          (error: unknown) => {
            this.release(db);
            reject(error);
          },
        );
      const db = this.idle.pop();
      if (db) void run(db);
      else this.waiting.push(run);
    });
  }

  private release(db: Database): void {
    const next = this.waiting.shift();
    if (next) void next(db);
    else this.idle.push(db);
  }

  /**
   * Prepared once per connection, and used only once prepared: sqlite3 drops the calls queued on a statement whose
   * preparation failed (SQLITE_BUSY while a migration holds the schema, say) without answering them, so a failed one
   * is forgotten and prepared again next time.
   */
  private statement(db: Database, sql: string): Promise<Statement> {
    let statements = this.prepared.get(db);
    if (!statements) this.prepared.set(db, (statements = new Map()));
    const known = statements.get(sql);
    if (known) return known;
    const preparing = new Promise<Statement>((resolve, reject) => {
      const statement = db.prepare(sql, (error: Error | null) => (error ? reject(error) : resolve(statement)));
    });
    statements.set(sql, preparing);
    preparing.catch(() => statements.delete(sql));
    return preparing;
  }

  async close(): Promise<void> {
    const statements = await Promise.allSettled([...this.prepared.values()].flatMap((each) => [...each.values()]));
    for (const statement of statements) if (statement.status === 'fulfilled') statement.value.finalize();
    await Promise.all(this.connections.map((db) => new Promise((resolve) => db.close(resolve))));
  }
}
