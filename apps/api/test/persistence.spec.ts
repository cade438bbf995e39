import { DataSource } from 'typeorm';
import { PetsRepository } from '../src/app/pets/pets.repository';
import type { Pet } from '@petstore/contract';
import { queryDatabase } from './support/database';
import { AUTH, JSON_AUTH, startApp } from './support/test-app';

const createPets = async (origin: string, names: string[]) => {
  const pets: Pet[] = [];
  for (const name of names) {
    const response = await fetch(`${origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name, categoryId: 2 }) });
    pets.push((await response.json()) as Pet);
  }
  return pets;
};

describe('data on SQLite', () => {
  it('keeps pets and ids across a restart on the same file, and gives new pets higher ids', async () => {
    const first = await startApp();
    const before = await createPets(first.origin, ['a', 'b', 'c']);
    await first.app.close();

    const second = await startApp({ databasePath: first.databasePath });
    try {
      const listed = (await (await fetch(`${second.origin}/v1/pets`, { headers: AUTH })).json()) as Pet[];
      expect(listed).toEqual(before);
      const [added] = await createPets(second.origin, ['d']);
      expect(added.id).toBeGreaterThan(before[2].id);
    } finally {
      await second.close();
    }
  });

  it('never reuses the id of the newest pet, even once its row is gone', async () => {
    const first = await startApp();
    const [, newest] = await createPets(first.origin, ['a', 'b']);
    await first.app.close();
    await queryDatabase(first.databasePath, 'DELETE FROM pets WHERE id = ?', [newest.id]);

    const second = await startApp({ databasePath: first.databasePath });
    try {
      const [added] = await createPets(second.origin, ['c']);
      expect(added.id).toBe(newest.id + 1);
    } finally {
      await second.close();
    }
  });

  it('runs in WAL mode with synchronous=FULL, created by migrations with the list index', async () => {
    const sut = await startApp();
    try {
      const [{ journal_mode }] = await queryDatabase<{ journal_mode: string }>(sut.databasePath, 'PRAGMA journal_mode');
      expect(journal_mode).toBe('wal');
      const [{ synchronous }] = await sut.app.get(DataSource).query('PRAGMA synchronous');
      expect(synchronous).toBe(2);
      const migrations = await queryDatabase<{ name: string }>(sut.databasePath, 'SELECT name FROM migrations');
      expect(migrations.map((m) => m.name)).toEqual(['CreatePets1764115200000']);
      const [table] = await queryDatabase<{ sql: string }>(sut.databasePath, "SELECT sql FROM sqlite_master WHERE name = 'pets'");
      expect(table.sql).toMatch(/"id" integer PRIMARY KEY AUTOINCREMENT/i);
      const plan = await queryDatabase<{ detail: string }>(
        sut.databasePath,
        "EXPLAIN QUERY PLAN SELECT * FROM pets WHERE status = 'sold' AND id > 10 ORDER BY id LIMIT 21",
      );
      expect(plan.map((row) => row.detail).join(' ')).toMatch(/USING (COVERING )?INDEX pets_status_id/);
    } finally {
      await sut.close();
    }
  });

  it('creates the database directory and file on first start', async () => {
    const { mkdtempSync, existsSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'petstore-fresh-'));
    const path = join(dir, 'nested', 'data', 'petstore.sqlite');
    const sut = await startApp({ databasePath: path });
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
    const repository = sut.app.get(PetsRepository);
    const insert = repository.insert.bind(repository);
    let entered = 0;
    jest.spyOn(repository, 'insert').mockImplementation(async (pet) => {
      entered += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
      return insert(pet);
    });
    const creates = Array.from({ length: 5 }, (_, i) =>
      fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: `p${i}`, categoryId: 1 }) }),
    );
    while (entered < creates.length) await new Promise((resolve) => setTimeout(resolve, 10));
    const closing = sut.app.close();
    expect((await Promise.all(creates)).map((response) => response.status)).toEqual([201, 201, 201, 201, 201]);
    await closing;
    const rows = await queryDatabase<{ n: number }>(sut.databasePath, 'SELECT COUNT(*) AS n FROM pets');
    expect(rows[0].n).toBe(5);
    await sut.close().catch(() => undefined);
  });
});
