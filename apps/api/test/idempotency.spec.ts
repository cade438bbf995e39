import type { Pet } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { IdempotencyKeyPurge } from '../src/app/pets/idempotency-key-purge';
import { expectError } from './support/assertions';
import { rawRequest } from './support/raw-http';
import { JSON_AUTH, startApp, TEST_KEY, type TestApp } from './support/test-app';
import { holdWriteLock } from './support/test-database';
import { batchesBegun, until } from './support/until';

const OTHER_KEY = 'pk_other_canary_9d2e7a41c3b85f60';
const DAY_MS = 24 * 60 * 60 * 1000;

describe('createPet with an Idempotency-Key', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await startApp({ env: { API_KEYS: `${TEST_KEY},${OTHER_KEY}` } });
  });
  afterAll(() => sut.close());

  let keys = 0;
  const newKey = () => `key-${Date.now()}-${(keys += 1)}`;
  const create = (body: unknown, key?: string, headers: Record<string, string> = JSON_AUTH) =>
    fetch(`${sut.origin}/v1/pets`, {
      method: 'POST',
      headers: key === undefined ? headers : { ...headers, 'idempotency-key': key },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const petCount = async () => (await sut.storedPets()).length;

  it('answers a retry with the same key and body with the original 201, without creating another pet', async () => {
    const key = newKey();
    const before = await petCount();
    const first = await create({ name: 'Rex', categoryId: 3 }, key);
    expect(first.status).toBe(201);
    const original = (await first.json()) as Pet;
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const retry = await create({ name: 'Rex', categoryId: 3 }, key);
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(original);
    expect(retry.headers.get('location')).toBe(`/v1/pets/${original.id}`);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await petCount()).toBe(before + 1);
  });

  it('treats bodies as equal JSON: key order and spacing do not matter', async () => {
    const key = newKey();
    const original = (await (await create({ name: 'Tom', categoryId: 1, status: 'sold' }, key)).json()) as Pet;
    const retry = await create('{ "status": "sold",\n "categoryId": 1.0, "name": "Tom" }', key);
    expect(retry.status).toBe(201);
    expect(((await retry.json()) as Pet).id).toBe(original.id);
  });

  it.each([
    ['another name', { name: 'Rexy', categoryId: 3 }],
    ['another category', { name: 'Rex', categoryId: 4 }],
    ['a status the first left to its default', { name: 'Rex', categoryId: 3, status: 'available' }],
  ])('refuses the same key with a different body (%s) with 422, creating nothing', async (_case, body) => {
    const key = newKey();
    expect((await create({ name: 'Rex', categoryId: 3 }, key)).status).toBe(201);
    const before = await petCount();
    const message = await expectError(await create(body, key), 422, 'idempotency_key_reused');
    expect(message).toMatch(/Idempotency-Key/);
    expect(await petCount()).toBe(before);
  });

  it('answers a retry that arrives while the first is still running with 409, and the first still succeeds', async () => {
    const key = newKey();
    const release = await holdWriteLock(sut.database);
    let first: Promise<Response>;
    try {
      const begun = await batchesBegun(sut);
      first = create({ name: 'Slow', categoryId: 1 }, key);
      // The first is being committed (and waits on the lock): the retry now meets it under way.
      await until(() => batchesBegun(sut), (count) => count > begun, 'the first create begun');
      const retry = await create({ name: 'Slow', categoryId: 1 }, key);
      await expectError(retry, 409, 'idempotency_key_in_use');
      expect(retry.headers.get('retry-after')).toBe('1');
    } finally {
      await release();
    }
    const answered = await first;
    expect(answered.status).toBe(201);
    const pet = (await answered.json()) as Pet;
    const replay = await create({ name: 'Slow', categoryId: 1 }, key);
    expect(((await replay.json()) as Pet).id).toBe(pet.id);
  });

  it('creates once when many identical requests race, and answers each with that pet or 409', async () => {
    const key = newKey();
    const before = await petCount();
    const answers = await Promise.all(Array.from({ length: 12 }, () => create({ name: 'Racer', categoryId: 2 }, key)));
    const created = answers.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const busy of answers.filter((r) => r.status !== 201)) await expectError(busy, 409, 'idempotency_key_in_use');
    expect(new Set(await Promise.all(created.map(async (r) => ((await r.json()) as Pet).id))).size).toBe(1);
    expect(await petCount()).toBe(before + 1);
  });

  it('scopes keys to the API key: another caller may use the same key for its own pet', async () => {
    const key = newKey();
    const mine = (await (await create({ name: 'Mine', categoryId: 1 }, key)).json()) as Pet;
    const theirs = await create({ name: 'Theirs', categoryId: 1 }, key, {
      authorization: `Bearer ${OTHER_KEY}`,
      'content-type': 'application/json',
    });
    expect(theirs.status).toBe(201);
    expect(((await theirs.json()) as Pet).id).not.toBe(mine.id);
  });

  it('does not spend a key on a request that failed validation', async () => {
    const key = newKey();
    await expectError(await create({ name: '', categoryId: 1 }, key), 400, 'validation_failed');
    const created = await create({ name: 'Valid', categoryId: 1 }, key);
    expect(created.status).toBe(201);
  });

  it('forgets a key after 24 hours: a later create with it adds a pet, and retries then get that one', async () => {
    const key = newKey();
    const old = (await (await create({ name: 'Old', categoryId: 1 }, key)).json()) as Pet;
    await sut.app.get(DataSource).query('UPDATE idempotency_keys SET created_at = created_at - ' + (DAY_MS + 1_000));
    const renewed = await create({ name: 'New', categoryId: 1 }, key);
    expect(renewed.status).toBe(201);
    const pet = (await renewed.json()) as Pet;
    expect(pet.id).toBeGreaterThan(old.id);
    expect(((await (await create({ name: 'New', categoryId: 1 }, key)).json()) as Pet).id).toBe(pet.id);
  });

  it('purges keys older than 24 hours from the table, and keeps the younger ones', async () => {
    const key = newKey();
    await create({ name: 'Purged', categoryId: 1 }, key);
    const stored = async () =>
      Number((await sut.app.get(DataSource).query(`SELECT COUNT(*) AS n FROM idempotency_keys WHERE idempotency_key = '${key}'`))[0].n);
    expect(await stored()).toBe(1);
    await sut.app.get(IdempotencyKeyPurge).runOnce(Date.now() + DAY_MS - 60_000);
    expect(await stored()).toBe(1);
    await sut.app.get(IdempotencyKeyPurge).runOnce(Date.now() + DAY_MS + 1_000);
    expect(await stored()).toBe(0);
  });

  it.each([
    ['that is empty', '', 'it is empty'],
    ['longer than 255 characters', 'k'.repeat(256), 'it has 256 characters'],
    ['with a space', 'two words', 'it has characters other than visible ASCII'],
    ['of 255 characters with a space', `two words${'k'.repeat(246)}`, 'it has characters other than visible ASCII'],
    ['with a non-ASCII character', 'clé', 'it has characters other than visible ASCII'],
  ])('refuses a key %s with 400 naming the header and what is wrong', async (_case, key, reason) => {
    const message = await expectError(await create({ name: 'Rex', categoryId: 1 }, key), 400, 'validation_failed');
    expect(message).toBe(`Invalid Idempotency-Key header: ${reason}; it must be 1 to 255 visible ASCII characters, without spaces.`);
  });

  it('accepts a key of exactly 255 visible ASCII characters', async () => {
    const key = `${'~!'.repeat(127)}Z`;
    expect(key).toHaveLength(255);
    expect((await create({ name: 'Rex', categoryId: 1 }, key)).status).toBe(201);
  });

  it('refuses a key sent twice', async () => {
    const body = '{"name":"Rex","categoryId":1}';
    const response = await rawRequest(
      sut.origin,
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
        `Idempotency-Key: a\r\nIdempotency-Key: b\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/Idempotency-Key.*more than once/) });
  });

  it('authenticates before looking at the key', async () => {
    await expectError(await create({ name: 'Rex', categoryId: 1 }, '', { 'content-type': 'application/json' }), 401, 'unauthorized');
  });

  it('keeps answering with the original pet after a restart', async () => {
    const key = newKey();
    const original = (await (await create({ name: 'Durable', categoryId: 5 }, key)).json()) as Pet;
    const restarted = await startApp({ database: sut.database, env: { API_KEYS: `${TEST_KEY},${OTHER_KEY}` } });
    try {
      const retry = await fetch(`${restarted.origin}/v1/pets`, {
        method: 'POST',
        headers: { ...JSON_AUTH, 'idempotency-key': key },
        body: JSON.stringify({ name: 'Durable', categoryId: 5 }),
      });
      expect(await retry.json()).toEqual(original);
    } finally {
      await restarted.app.close();
    }
  });

  it('leaves creates without a key as they were: each one adds a pet', async () => {
    const before = await petCount();
    await create({ name: 'Twin', categoryId: 1 });
    await create({ name: 'Twin', categoryId: 1 });
    expect(await petCount()).toBe(before + 2);
  });
});
