import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pet } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { migrations as ALL_MIGRATIONS } from '../src/app/database/migrations';
import { PetStore } from '../src/app/pets/pet.store';
import { AUTH, JSON_AUTH, startApp } from './support/test-app';
import { createTestDatabase, TEST_DATABASE } from './support/test-database';

const onSqlite = TEST_DATABASE === 'sqlite' ? it : it.skip;
const onPostgres = TEST_DATABASE === 'postgres' ? it : it.skip;

const createPets = async (origin: string, names: string[]) => {
  const pets: Pet[] = [];
  for (const name of names) {
    const response = await fetch(`${origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name, categoryId: 2 }) });
    pets.push((await response.json()) as Pet);
  }
  return pets;
};

describe(`data on ${TEST_DATABASE}`, () => {
  it('keeps pets and ids across a restart on the same database, and gives new pets higher ids', async () => {
    const database = await createTestDatabase();
    try {
      const first = await startApp({ database });
      const before = await createPets(first.origin, ['a', 'b', 'c']);
      await first.close();

      const second = await startApp({ database });
      const listed = (await (await fetch(`${second.origin}/v1/pets`, { headers: AUTH })).json()) as Pet[];
      expect(listed).toEqual(before);
      const [added] = await createPets(second.origin, ['d']);
      expect(added.id).toBeGreaterThan(before[2].id);
      await second.close();
    } finally {
      await database.drop();
    }
  });

  it('never reuses the id of the newest pet, even once its row is gone', async () => {
    const database = await createTestDatabase();
    try {
      const first = await startApp({ database });
      const [, newest] = await createPets(first.origin, ['a', 'b']);
      await first.app.get(DataSource).query(`DELETE FROM pets WHERE id = ${newest.id}`);
      await first.close();

      const second = await startApp({ database });
      const [added] = await createPets(second.origin, ['c']);
      expect(added.id).toBeGreaterThan(newest.id);
      await second.close();
    } finally {
      await database.drop();
    }
  });

  it('has its schema from the migrations, recorded once', async () => {
    const sut = await startApp();
    try {
      const migrations = await sut.app.get(DataSource).query('SELECT name FROM migrations');
      expect(migrations.map((m: { name: string }) => m.name)).toEqual(ALL_MIGRATIONS.map((migration) => migration.name));
    } finally {
      await sut.close();
    }
  });

  onSqlite('runs in WAL mode with synchronous=FULL, ids from AUTOINCREMENT, and an index for the list', async () => {
    const sut = await startApp();
    try {
      const dataSource = sut.app.get(DataSource);
      expect(await dataSource.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await dataSource.query('PRAGMA synchronous')).toEqual([{ synchronous: 2 }]);
      const [table] = await dataSource.query("SELECT sql FROM sqlite_master WHERE name = 'pets'");
      expect(table.sql).toMatch(/"id" integer PRIMARY KEY AUTOINCREMENT/i);
      const plan = await dataSource.query("EXPLAIN QUERY PLAN SELECT * FROM pets WHERE status = 'sold' AND id > 10 ORDER BY id LIMIT 21");
      expect(plan.map((row: { detail: string }) => row.detail).join(' ')).toMatch(/USING (COVERING )?INDEX pets_status_id/);
    } finally {
      await sut.close();
    }
  });

  onPostgres('uses 64-bit identity ids, the default durable commit, and an index for the list', async () => {
    const sut = await startApp();
    try {
      const dataSource = sut.app.get(DataSource);
      expect(await dataSource.query('SHOW synchronous_commit')).toEqual([{ synchronous_commit: 'on' }]);
      const [id] = await dataSource.query(
        "SELECT data_type, is_identity FROM information_schema.columns WHERE table_name = 'pets' AND column_name = 'id'",
      );
      expect(id).toEqual({ data_type: 'bigint', is_identity: 'YES' });
      const [index] = await dataSource.query("SELECT indexdef FROM pg_indexes WHERE indexname = 'pets_status_id'");
      expect(index.indexdef).toMatch(/\(status, id\)/);
    } finally {
      await sut.close();
    }
  });

  onPostgres('refuses, rather than rounds, a stored id beyond the safe integer range', async () => {
    const sut = await startApp();
    try {
      await sut.app.get(DataSource).query("INSERT INTO pets (id, name, category_id, status) OVERRIDING SYSTEM VALUE VALUES (9007199254740993, 'big', 1, 'sold')");
      const response = await fetch(`${sut.origin}/v1/pets?status=sold`, { headers: AUTH });
      expect(response.status).toBe(500);
      expect(await response.text()).not.toContain('9007199254740992');
    } finally {
      await sut.close();
    }
  });

  onSqlite('creates the database directory and file on first start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-fresh-'));
    const path = join(dir, 'nested', 'data', 'petstore.sqlite');
    const sut = await startApp({ database: { url: `sqlite:${path}`, drop: async () => undefined } });
    try {
      expect(existsSync(path)).toBe(true);
    } finally {
      await sut.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('stopping', () => {
  it('lets requests in flight finish before the database closes', async () => {
    const sut = await startApp();
    // Hold every insert for a moment, so that the stop begins with all of them inside the service.
    const repository = sut.app.get(PetStore);
    const insert = repository.insert.bind(repository);
    let entered = 0;
    jest.spyOn(repository, 'insert').mockImplementation(async (pet) => {
      entered += 1;
      await sleep(300);
      return insert(pet);
    });
    const creates = Array.from({ length: 5 }, (_, i) =>
      fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: `p${i}`, categoryId: 1 }) }),
    );
    while (entered < creates.length) await sleep(10);
    const closing = sut.app.close();
    expect((await Promise.all(creates)).map((response) => response.status)).toEqual([201, 201, 201, 201, 201]);
    await closing;
    const reopened = await startApp({ database: sut.database });
    expect(await reopened.storedPets()).toHaveLength(5);
    await reopened.close();
    await sut.database.drop();
  });
});
