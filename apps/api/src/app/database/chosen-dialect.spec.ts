import type { DatabaseConfig } from '../config/app-config';
import { dialectFor } from './chosen-dialect';
import { PostgresDialect } from './postgres/postgres.dialect';
import { SqliteDialect } from './sqlite/sqlite.dialect';

describe(dialectFor.name, () => {
  const settings = { poolSize: 10, connectTimeoutMs: 5_000, statementTimeoutMs: 5_000 };

  it('chooses the dialect of the configured database, with its configuration', () => {
    const sqlite: DatabaseConfig = { type: 'sqlite', path: 'data/petstore.db', ...settings };
    const postgres: DatabaseConfig = { type: 'postgres', url: 'postgres://petstore@db:5432/petstore', ...settings };
    expect(dialectFor(sqlite)).toEqual(expect.objectContaining({ kind: 'sqlite', config: sqlite }));
    expect(dialectFor(sqlite)).toBeInstanceOf(SqliteDialect);
    expect(dialectFor(postgres)).toBeInstanceOf(PostgresDialect);
  });

  it('names a database it does not know rather than choosing one', () => {
    expect(() => dialectFor({ type: 'mysql', ...settings } as unknown as DatabaseConfig)).toThrow(
      'Unsupported database: {"type":"mysql","poolSize":10,"connectTimeoutMs":5000,"statementTimeoutMs":5000}',
    );
  });
});
