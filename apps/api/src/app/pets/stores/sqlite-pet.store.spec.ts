import { nameSearchKey } from '@petstore/contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { alwaysServing, itServesPetsAsTheModel } from '../../../../test/support/pet-store-contract';
import { SqliteDialect } from '../../database/sqlite/sqlite.dialect';
import { Metrics } from '../../metrics/metrics';
import { SqlitePetStore } from './sqlite-pet.store';

/** A migrated database at `path`, and the store over it. */
async function openStore(path: string) {
  const dialect = new SqliteDialect({ type: 'sqlite', path, poolSize: 1, connectTimeoutMs: 5_000, statementTimeoutMs: 5_000 });
  const dataSource = await new DataSource(await dialect.options()).initialize();
  await dialect.migrate(dataSource);
  return { dataSource, store: new SqlitePetStore(dataSource, alwaysServing(), dialect, new Metrics()) };
}

// SQLite's statements of the pets store on a file: the FTS5 tables (trigrams, and the short pieces), FTS5's phrase
// syntax taken literally, the small category's way in, and the read-only connections that serve reads.
describe(SqlitePetStore.name, () => {
  itServesPetsAsTheModel(async (pets) => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-sqlite-pet-store-'));
    const { dataSource, store } = await openStore(join(dir, 'petstore.sqlite'));
    const rows = pets.map(({ id, name, categoryId, status }) => [id, name, categoryId, status, nameSearchKey(name)]);
    await dataSource.query(
      `INSERT INTO pets (id, name, category_id, status, name_key)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?)`,
      [JSON.stringify(rows)],
    );
    return {
      store,
      query: (sql) => dataSource.query(sql),
      close: async () => {
        await dataSource.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });

  it('reads on connections of its own, beside the writer: a write not yet committed is not seen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-sqlite-readers-'));
    const { dataSource, store } = await openStore(join(dir, 'petstore.sqlite'));
    try {
      await dataSource.query('BEGIN');
      await dataSource.query(`INSERT INTO pets (name, category_id, status, name_key) VALUES ('Rex', 1, 'available', 'rex')`);
      expect(await store.findById(1)).toBeUndefined();
      expect(await store.findPage({ afterId: 0, take: 5 })).toEqual([]);
      await dataSource.query('COMMIT');
      expect(await store.findById(1)).toEqual({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });
    } finally {
      await dataSource.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads on its one connection when the database is in memory, where no other connection could see it', async () => {
    const { dataSource, store } = await openStore(':memory:');
    try {
      await dataSource.query(`INSERT INTO pets (name, category_id, status, name_key) VALUES ('Rex', 1, 'available', 'rex')`);
      expect(await store.findPage({ nameKey: 'ex', afterId: 0, take: 5 })).toEqual([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
    } finally {
      await dataSource.destroy();
    }
  });
});
