import type { Pet } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { DatabaseConnection } from '../src/app/database/database-connection';
import { migrations } from '../src/app/database/migrations';
import { expectError } from './support/assertions';
import { JSON_AUTH, startApp, type TestApp } from './support/test-app';
import { createTestDatabase, holdWriteLock, TEST_DATABASE, type TestDatabase } from './support/test-database';
import { batchesBegun, createsWaiting, until } from './support/until';

const create = (app: TestApp, name: string, key?: string) =>
  fetch(`${app.origin}/v1/pets`, {
    method: 'POST',
    headers: key === undefined ? JSON_AUTH : { ...JSON_AUTH, 'idempotency-key': key },
    body: JSON.stringify({ name, categoryId: 1 }),
  });

// docs/operations.md, "Data": any number of processes may share one SQLite file. Two apps on one file stand for two processes:
// each has its own connections, and SQLite's locks know no difference between the two.
(TEST_DATABASE === 'sqlite' ? describe : describe.skip)('instances sharing one SQLite file', () => {
  let database: TestDatabase;
  let apps: TestApp[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
  });

  afterEach(async () => {
    for (const app of apps) await app.close();
    apps = [];
    await database.drop();
  });

  it('start together on a new file: both ready at their first attempt, each migration applied once', async () => {
    // A race shows up now and then, not every time: several new files.
    for (let attempt = 0; attempt < 6; attempt++) {
      const file = await createTestDatabase();
      const pair = await Promise.all([startApp({ database: file }), startApp({ database: file })]);
      try {
        // A failed first attempt would leave it not ready until its retry, half a second later.
        for (const app of pair) expect(app.app.get(DatabaseConnection).ready).toBe(true);
        const applied = await pair[0].app.get(DataSource).query('SELECT name FROM migrations');
        expect(applied).toHaveLength(migrations.length);
      } finally {
        for (const app of pair) await app.close();
        await file.drop();
      }
    }
  });

  it('create one pet for a key sent to both at once, and answer both with it', async () => {
    apps = [await startApp({ database }), await startApp({ database })];
    // Held so that both creates wait for the file together: neither can see the other's key before it asks.
    const release = await holdWriteLock(database);
    const begun = await Promise.all(apps.map(batchesBegun));
    const answers = apps.map((app) => create(app, 'Shared', 'shared-key'));
    // Each create is in a batch of its process, waiting for the file.
    await Promise.all(apps.map((app, index) => until(() => batchesBegun(app), (count) => count > begun[index], 'both creates begun')));
    await release();
    const [first, second] = await Promise.all(answers);
    expect([first.status, second.status]).toEqual([201, 201]);
    const pets = (await Promise.all([first.json(), second.json()])) as Pet[];
    expect(pets[1]).toEqual(pets[0]);
    expect(await apps[0].storedPets()).toEqual([pets[0]]);
  });

  it('decide a batch in the write transaction: a second create with one key is in use, a stored key replays', async () => {
    apps = [await startApp({ database })];
    const [app] = apps;
    const stored = (await (await create(app, 'Stored', 'stored-key')).json()) as Pet;

    const release = await holdWriteLock(database);
    // The first create takes the writer and waits for the lock; those after it gather into the next batch.
    const begun = await batchesBegun(app);
    const blocked = create(app, 'Blocked');
    await until(() => batchesBegun(app), (count) => count > begun, 'the blocked create begun');
    const batch = [create(app, 'Twin', 'twin-key'), create(app, 'Twin', 'twin-key'), create(app, 'Stored', 'stored-key')];
    await until(() => createsWaiting(app), (waiting) => waiting === 3, 'three creates gathered for the next batch');
    await release();

    expect((await blocked).status).toBe(201);
    const [one, other, replay] = await Promise.all(batch);
    const [created, busy] = one.status === 201 ? [one, other] : [other, one];
    expect(created.status).toBe(201);
    await expectError(busy, 409, 'idempotency_key_in_use');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(stored);
    const twin = (await created.json()) as Pet;
    expect((await app.storedPets()).map(({ name }) => name)).toEqual(['Stored', 'Blocked', 'Twin']);
    // The key now answers with the pet of the create that went ahead.
    expect(await (await create(app, 'Twin', 'twin-key')).json()).toEqual(twin);
  });
});
