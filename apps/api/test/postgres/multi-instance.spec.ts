import type { Pet } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { migrations } from '../../src/app/database/migrations';
import { AUTH, JSON_AUTH, startApp, type TestApp } from '../support/test-app';
import { expectError } from '../support/assertions';
import { createTestDatabase, holdWriteLock, type TestDatabase } from '../support/test-database';
import { until } from '../support/until';

/** Sessions of this database whose batch insert of pets waits on a lock. */
const WAITING_INSERTS = `SELECT count(*) AS waiting FROM pg_stat_activity
                         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'WITH new_pets%'`;

// Several stateless instances serving one PostgreSQL database.
describe('two instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let instances: TestApp[];

  const create = (sut: TestApp, name: string) =>
    fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name, categoryId: 7 }) }).then(
      async (response) => {
        expect(response.status).toBe(201);
        return (await response.json()) as Pet;
      },
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    // Started at the same moment: the migration lock lets exactly one of them create the schema.
    instances = await Promise.all([startApp({ database }), startApp({ database }), startApp({ database })]);
  });
  afterAll(async () => {
    await Promise.all(instances.map((sut) => sut.close()));
    await database.drop();
  });

  it('ran the migrations once although the instances started together', async () => {
    const rows = await instances[0].app.get(DataSource).query('SELECT name FROM migrations');
    expect(rows).toEqual(migrations.map(({ name }) => ({ name })));
  });

  it('gives concurrent creates on different instances distinct ids, and each instance reads the others\' writes', async () => {
    const created = await Promise.all(Array.from({ length: 60 }, (_, i) => create(instances[i % 3], `pet-${i}`)));
    const ids = created.map((pet) => pet.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const sut of instances) {
      for (const pet of created.filter((_, i) => i % 7 === 0)) {
        const response = await fetch(`${sut.origin}/v1/pets/${pet.id}`, { headers: AUTH });
        expect(await response.json()).toEqual(pet);
      }
    }
  });

  it('walks the pages through alternating instances, seeing every pet once while others are added', async () => {
    const existing = (await instances[0].storedPets()).map((pet) => pet.id);
    const seen: number[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const sut = instances[page % instances.length];
      const query: string = cursor ? `?limit=9&cursor=${cursor}` : '?limit=9';
      const response: Response = await fetch(`${sut.origin}/v1/pets${query}`, { headers: AUTH });
      seen.push(...((await response.json()) as Pet[]).map((pet) => pet.id));
      // Another client keeps adding pets on another instance while the walk goes on.
      await create(instances[(page + 1) % instances.length], `during-walk-${page}`);
      const next = response.headers.get('link');
      cursor = next ? new URL(/<([^>]+)>/.exec(next)?.[1] ?? '').searchParams.get('cursor') : null;
      page += 1;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => existing.includes(id))).toEqual(existing);
  });

  describe('Idempotency-Key across instances', () => {
    const createWithKey = (sut: TestApp, key: string, name: string) =>
      fetch(`${sut.origin}/v1/pets`, {
        method: 'POST',
        headers: { ...JSON_AUTH, 'idempotency-key': key },
        body: JSON.stringify({ name, categoryId: 7 }),
      });

    it('answers a retry on another instance with the pet the first instance created', async () => {
      const key = `cross-${Date.now()}`;
      const first = (await (await createWithKey(instances[0], key, 'Cross')).json()) as Pet;
      for (const sut of instances.slice(1)) {
        const retry = await createWithKey(sut, key, 'Cross');
        expect(retry.status).toBe(201);
        expect(await retry.json()).toEqual(first);
      }
      expect((await expectError(await createWithKey(instances[2], key, 'Other'), 422, 'idempotency_key_reused')).length).toBeGreaterThan(0);
    });

    it('answers 409 on another instance while the first is still running, and creates one pet', async () => {
      const key = `busy-${Date.now()}`;
      const release = await holdWriteLock(database);
      let first: Promise<Response>;
      try {
        first = createWithKey(instances[0], key, 'Busy');
        // Its transaction holds the key's advisory lock once its insert waits on the table lock: then, and not by a
        // guess of time, is the first create under way for the other instances.
        await until(
          () => instances[2].app.get(DataSource).query(WAITING_INSERTS) as Promise<Array<{ waiting: string }>>,
          ([{ waiting }]) => Number(waiting) > 0,
          "the first create's insert waiting on the lock",
        );
        await expectError(await createWithKey(instances[1], key, 'Busy'), 409, 'idempotency_key_in_use');
      } finally {
        await release();
      }
      const created = (await (await first).json()) as Pet;
      const rows = await instances[2].app.get(DataSource).query('SELECT id FROM pets WHERE name = $1', ['Busy']);
      expect(rows.map((row: { id: string }) => Number(row.id))).toEqual([created.id]);
    });
  });
});
