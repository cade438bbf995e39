import { DataSource } from 'typeorm';
import { ApiKeyEntity } from '../src/app/auth/api-key.entity';
import { ApiKeyStore } from '../src/app/auth/api-key.store';
import { expectError } from './support/assertions';
import { AUTH, startApp, type TestApp } from './support/test-app';
import { createTestDatabase, type TestDatabase } from './support/test-database';

// Keys issued into the database (as `npm run keys -- create` does) alongside the keys of API_KEYS.
describe('stored API keys', () => {
  let database: TestDatabase;
  let instances: TestApp[];
  let store: ApiKeyStore;
  const list = (sut: TestApp, key: string) => fetch(`${sut.origin}/v1/pets`, { headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    database = await createTestDatabase();
    // Two instances on one database: a revocation must reach both.
    instances = [await startApp({ database }), await startApp({ database })];
    store = new ApiKeyStore(instances[0].app.get(DataSource).getRepository(ApiKeyEntity));
  });
  afterAll(async () => {
    for (const sut of instances) await sut.close();
    await database.drop();
  });

  it('issues keys with a recognisable prefix and 256 random bits, storing only their hash', async () => {
    const { key, record } = await store.issue('ci', null);
    expect(key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    const rows = await instances[0].app.get(DataSource).query('SELECT * FROM api_keys');
    expect(JSON.stringify(rows)).not.toContain(key.slice(12));
    expect(rows[0]).toMatchObject({ key_hash: expect.stringMatching(/^[0-9a-f]{64}$/), shown_part: key.slice(0, 12) });
    expect(record.id).toEqual(expect.any(Number));
  });

  it('accepts a stored key on every instance, next to the keys of API_KEYS, and records its last use', async () => {
    const { key, record } = await store.issue('mobile app', null);
    for (const sut of instances) expect((await list(sut, key)).status).toBe(200);
    expect((await list(instances[0], AUTH.authorization.slice(7))).status).toBe(200);
    const [row] = await store.list().then((all) => all.filter((r) => r.id === record.id));
    expect(row.lastUsedAt).toEqual(expect.any(Number));
  });

  it('refuses a revoked key within 5 seconds on every instance', async () => {
    const { key, record } = await store.issue('to revoke', null);
    for (const sut of instances) expect((await list(sut, key)).status).toBe(200);
    await store.revoke(String(record.id));
    const revokedAt = Date.now();
    for (const sut of instances) {
      while ((await list(sut, key)).status === 200) {
        expect(Date.now() - revokedAt).toBeLessThan(5_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await expectError(await list(sut, key), 401, 'unauthorized');
    }
  });

  it('refuses an expired key', async () => {
    const { key } = await store.issue('short-lived', Date.now() - 1);
    await expectError(await list(instances[1], key), 401, 'unauthorized');
  });

  it('revokes by the start of the key shown in listings', async () => {
    const { key } = await store.issue('by shown part', null);
    expect(await store.revoke(key.slice(0, 12))).toMatchObject({ revokedAt: expect.any(Number) });
    expect(await store.revoke('pk_nothing')).toBeNull();
  });
});
