import { OPERATION_SCOPES, type OperationId, type Scope } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { ApiKeyEntity } from '../src/app/auth/api-key.entity';
import { ApiKeyStore } from '../src/app/auth/api-key.store';
import { rawRequest } from './support/raw-http';
import { expectError } from './support/assertions';
import { AUTH, startApp, type TestApp } from './support/test-app';

// Scopes of stored keys (behaviour.md, "Scopes and rotation"): each operation needs one, decided with authentication.
describe('key scopes', () => {
  let sut: TestApp;
  let store: ApiKeyStore;
  const keys = {} as Record<'read' | 'write' | 'both', string>;
  let petId: number;
  let bothId: number;

  const call = (operation: OperationId, key: string, init: { body?: string; headers?: Record<string, string> } = {}) => {
    const headers = { authorization: `Bearer ${key}`, ...init.headers };
    if (operation === 'createPet') {
      return fetch(`${sut.origin}/v1/pets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: init.body ?? JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
    }
    if (operation === 'streamEvents') return fetch(`${sut.origin}/v1/events`, { headers, signal: AbortSignal.timeout(10_000) });
    return fetch(`${sut.origin}/v1/pets${operation === 'getPet' ? `/${petId}` : ''}`, { headers });
  };

  beforeAll(async () => {
    sut = await startApp();
    store = new ApiKeyStore(sut.app.get(DataSource).getRepository(ApiKeyEntity));
    const issue = (scopes?: Scope[]) => store.issue('scoped', null, scopes);
    keys.read = (await issue(['pets:read'])).key;
    keys.write = (await issue(['pets:write'])).key;
    const both = await issue();
    keys.both = both.key;
    bothId = both.record.id;
    petId = ((await (await call('createPet', keys.both)).json()) as { id: number }).id;
  });
  afterAll(() => sut.close());

  const SUCCESS: Record<OperationId, number> = { listPets: 200, getPet: 200, createPet: 201, streamEvents: 200 };
  const cases = (['read', 'write', 'both'] as const).flatMap((holds) =>
    (Object.keys(OPERATION_SCOPES) as OperationId[]).map((operation) => [holds, operation] as const),
  );

  it.each(cases)('a key holding %s: %s', async (holds, operation) => {
    const needed = OPERATION_SCOPES[operation];
    const allowed = holds === 'both' || needed === `pets:${holds}`;
    const response = await call(operation, keys[holds]);
    if (allowed) {
      expect(response.status).toBe(SUCCESS[operation]);
      // A stream stays open until its client leaves.
      await response.body?.cancel();
      return;
    }
    expect(response.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${needed}"`);
    expect(await expectError(response, 403, 'insufficient_scope')).toContain(needed);
  });

  it('gives a key created without scopes, and every key of API_KEYS, both scopes', async () => {
    const [record] = (await store.list()).filter(({ id }) => id === bothId);
    expect(record.scopes).toEqual(['pets:read', 'pets:write']);
    expect((await call('createPet', AUTH.authorization.slice(7))).status).toBe(201);
    expect((await call('listPets', AUTH.authorization.slice(7))).status).toBe(200);
  });

  it('answers 403 before 413 and 415: the body of a key without the scope is never looked at', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    await expectError(await call('createPet', keys.read, { body: huge }), 403, 'insufficient_scope');
    await expectError(await call('createPet', keys.read, { body: 'hello', headers: { 'content-type': 'text/plain' } }), 403, 'insufficient_scope');
    await expectError(await call('createPet', keys.read, { body: '{not json' }), 403, 'insufficient_scope');
  });

  it('answers 403 before the body is read: a request announcing 1 MB and sending none is answered at once', async () => {
    const head =
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${keys.read}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 1048576\r\n\r\n';
    const response = await rawRequest(sut.origin, head);
    expect(response.status).toBe(403);
    expect(response.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="pets:write"');
  });

  it('stores no Idempotency-Key sent with a refused create', async () => {
    const response = await call('createPet', keys.read, { headers: { 'idempotency-key': 'scope-refused-1' } });
    expect(response.status).toBe(403);
    const rows = (await sut.app.get(DataSource).query("SELECT * FROM idempotency_keys WHERE idempotency_key = 'scope-refused-1'")) as unknown[];
    expect(rows).toEqual([]);
  });

  it('still answers 401, not 403, to an unknown, revoked or expired key', async () => {
    await expectError(await call('createPet', 'pk_unknown_key_0000000000'), 401, 'unauthorized');
    const revoked = await store.issue('revoked reader', null, ['pets:read']);
    await store.revoke(String(revoked.record.id));
    await expectError(await call('createPet', revoked.key), 401, 'unauthorized');
    const expired = await store.issue('expired reader', Date.now() - 1, ['pets:read']);
    await expectError(await call('createPet', expired.key), 401, 'unauthorized');
  });
});

describe('key scopes under the per-key rate limit', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await startApp({ env: { RATE_LIMIT_RPS: '2' } });
  });
  afterAll(() => sut.close());

  it('counts a refused request as usual, and says so in its RateLimit fields', async () => {
    const store = new ApiKeyStore(sut.app.get(DataSource).getRepository(ApiKeyEntity));
    const { key } = await store.issue('reader', null, ['pets:read']);
    const create = () =>
      fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' });
    const answers: Response[] = [];
    // Ten in well under a second span at most two windows of two: some must be refused for the limit.
    for (let i = 0; i < 10; i += 1) answers.push(await create());
    const statuses = answers.map((response) => response.status);
    expect(statuses).toContain(403);
    expect(statuses).toContain(429);
    expect(statuses.indexOf(429)).toBeGreaterThan(statuses.indexOf(403));
    expect(answers[0].headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
  });
});
