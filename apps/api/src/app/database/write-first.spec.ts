import type { EntityManager } from 'typeorm';
import { perDatabase } from './per-database';
import { writeFirst } from './write-first';

/** An EntityManager whose connection is of `type`, recording its statements. */
const managerOn = (type: string) => {
  const statements: string[] = [];
  const manager = { connection: { options: { type } }, query: async (sql: string) => void statements.push(sql) };
  return { manager: manager as unknown as EntityManager, statements };
};

describe(writeFirst.name, () => {
  it('takes SQLite’s write lock with a write that changes nothing, first', async () => {
    const { manager, statements } = managerOn('sqlite');
    await writeFirst(manager, 'api_keys');
    expect(statements).toEqual(['UPDATE api_keys SET id = id WHERE 0']);
  });

  it('runs nothing on PostgreSQL, whose transactions need no such thing', async () => {
    const { manager, statements } = managerOn('postgres');
    await writeFirst(manager, 'api_keys');
    expect(statements).toEqual([]);
  });
});

describe(perDatabase.name, () => {
  const values = { sqlite: 'on SQLite', postgres: 'on PostgreSQL' };

  it('gives the value of the database of a data source or of a query runner’s connection', () => {
    expect(perDatabase(managerOn('postgres').manager.connection, values)).toBe('on PostgreSQL');
    expect(perDatabase({ connection: managerOn('sqlite').manager.connection } as never, values)).toBe('on SQLite');
  });

  it('names a database it has no value for', () => {
    expect(() => perDatabase(managerOn('mysql').manager.connection, values)).toThrow('Unsupported database: mysql');
  });
});
