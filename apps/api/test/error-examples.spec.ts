import type { ErrorBody, OperationId } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { ApiKeyEntity } from '../src/app/auth/api-key.entity';
import { ApiKeyStore } from '../src/app/auth/api-key.store';
import { DatabaseConnection } from '../src/app/database/database-connection';
import { EventFeed } from '../src/app/events/stream/event-feed';
import { PetStore } from '../src/app/pets/pet.store';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';

interface Example {
  summary: string;
  value: ErrorBody;
}
type Operations = Record<string, Record<string, { operationId: OperationId; responses: Record<string, { content?: Record<string, { examples?: Record<string, Example> }> }> }>>;

// behaviour.md: "Each error response's example is that error as answered". Every example of every error response in
// the served document is provoked here, on the real app, and the answer's body must be the example exactly; an
// example with no way to provoke it here fails, so a new one cannot go unchecked.
describe('the OpenAPI document’s error examples', () => {
  let sut: TestApp;
  let limited: TestApp;
  let operations: Operations;
  const keys = {} as Record<'read' | 'write', string>;

  beforeAll(async () => {
    sut = await startApp();
    limited = await startApp({ env: { RATE_LIMIT_RPS: '1' } });
    operations = ((await (await fetch(`${sut.origin}/docs/openapi.json`)).json()) as { paths: Operations }).paths;
    const store = new ApiKeyStore(sut.app.get(DataSource).getRepository(ApiKeyEntity));
    keys.read = (await store.issue('read', null, ['pets:read'])).key;
    keys.write = (await store.issue('write', null, ['pets:write'])).key;
  });
  afterAll(async () => {
    await sut?.close();
    await limited?.close();
  });
  afterEach(() => jest.restoreAllMocks());

  const PATHS: Record<OperationId, string> = { listPets: '/pets', createPet: '/pets', getPet: '/pets/42', streamEvents: '/events' };
  const url = (operation: OperationId, app = sut) => `${app.origin}/v1${PATHS[operation]}`;
  /** Streams opened while provoking an answer, closed afterwards: a stream stays open until its client leaves. */
  const opened: Response[] = [];
  const send = (operation: OperationId, init: RequestInit = {}, app = sut) =>
    fetch(url(operation, app), operation === 'createPet' ? { method: 'POST', headers: JSON_AUTH, body: '{"name":"Rex","categoryId":1}', ...init } : { headers: AUTH, ...init });
  const withKey = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

  /** How each documented example is provoked, by operation, status and example name. */
  const provoke: Record<string, (operation: OperationId) => Promise<Response>> = {
    '400 limit': () => fetch(`${sut.origin}/v1/pets?limit=101`, { headers: AUTH }),
    '400 unknown_parameter': () => fetch(`${sut.origin}/v1/pets?staus=sold`, { headers: AUTH }),
    '400 invalid_fields': (op) => send(op, { body: JSON.stringify({ name: ' ', categoryId: 2.5 }) }),
    '400 missing_field': (op) => send(op, { body: JSON.stringify({ name: 'Rex' }) }),
    '400 idempotency_key': (op) => send(op, { headers: { ...JSON_AUTH, 'idempotency-key': '' } }),
    '400 pet_id': () => fetch(`${sut.origin}/v1/pets/abc`, { headers: AUTH }),
    '401 unauthorized': (op) => send(op, { headers: { 'content-type': 'application/json' } }),
    '403 insufficient_scope': (op) => send(op, { headers: withKey(op === 'createPet' ? keys.read : keys.write) }),
    '404 not_found': () => fetch(`${sut.origin}/v1/pets/42`, { headers: AUTH }),
    '413 payload_too_large': (op) => send(op, { body: JSON.stringify({ name: 'x'.repeat(20_000), categoryId: 1 }) }),
    '415 unsupported_media_type': (op) => send(op, { headers: { ...AUTH, 'content-type': 'text/plain' } }),
    '422 idempotency_key_reused': async (op) => {
      const headers = { ...JSON_AUTH, 'idempotency-key': `reused-${op}` };
      expect((await send(op, { headers })).status).toBe(201);
      return send(op, { headers, body: JSON.stringify({ name: 'Other', categoryId: 1 }) });
    },
    '429 per_key': async (op) => {
      // One request a second: requests in a row meet the limit however slowly the machine sends them, as long as two
      // share a window; a bounded count keeps a fault from spinning forever (the comparison then shows what came).
      let answer = await send(op, {}, limited);
      for (let sent = 1; answer.status !== 429 && sent < 50; sent += 1) {
        await answer.body?.cancel();
        answer = await send(op, {}, limited);
      }
      return answer;
    },
    '400 last_event_id': () => fetch(`${sut.origin}/v1/events`, { headers: { ...AUTH, 'last-event-id': 'abc' } }),
    '400 after': () => fetch(`${sut.origin}/v1/events?after=-1`, { headers: AUTH }),
    '400 unknown_query_parameter': () => fetch(`${sut.origin}/v1/events?afer=42`, { headers: AUTH }),
    '429 streams_per_key': async (op) => {
      // The default cap, which the example names.
      for (let open = 0; open < 20; open += 1) opened.push(await send(op));
      expect(opened.map(({ status }) => status)).toEqual(Array(20).fill(200));
      return send(op);
    },
    '500 internal_error': (op) => {
      const store = sut.app.get(PetStore);
      jest.spyOn(store, 'findPage').mockRejectedValue(new Error('unexpected'));
      jest.spyOn(store, 'findById').mockRejectedValue(new Error('unexpected'));
      jest.spyOn(store, 'insert').mockRejectedValue(new Error('unexpected'));
      jest.spyOn(sut.app.get(EventFeed), 'open').mockRejectedValue(new Error('unexpected'));
      return send(op);
    },
    '503 read_only': (op) => {
      jest.spyOn(sut.app.get(DatabaseConnection), 'writable', 'get').mockReturnValue(false);
      return send(op);
    },
    '503 service_unavailable': (op) => {
      jest.spyOn(sut.app.get(DatabaseConnection), 'serving', 'get').mockReturnValue(false);
      return send(op);
    },
  };
  // Provoked by other specs: a create held mid-commit (idempotency.spec.ts), and the address's 429, whose seconds are
  // how long it still has to wait (rate-limit.spec.ts).
  const checkedElsewhere = new Set(['429 failed_authentications', '409 idempotency_key_in_use']);

  it('has an example for every error response, each provoked below or checked elsewhere', () => {
    const names = Object.values(operations).flatMap((item) =>
      Object.values(item).flatMap(({ responses }) =>
        Object.entries(responses)
          .filter(([status]) => Number(status) >= 400)
          .flatMap(([status, response]) => Object.keys(response.content?.['application/json']?.examples ?? {}).map((name) => `${status} ${name}`)),
      ),
    );
    expect(names.filter((name) => !(name in provoke) && !checkedElsewhere.has(name))).toEqual([]);
  });

  const cases = () =>
    Object.values(operations).flatMap((item) =>
      Object.values(item).flatMap(({ operationId, responses }) =>
        Object.entries(responses).flatMap(([status, response]) =>
          Object.entries(response.content?.['application/json']?.examples ?? {})
            .filter(([name]) => `${status} ${name}` in provoke)
            .map(([name, example]) => ({ operationId, key: `${status} ${name}`, example })),
        ),
      ),
    );

  it('answers each example exactly, status, code and message', async () => {
    const checked: string[] = [];
    for (const { operationId, key, example } of cases()) {
      const response = await provoke[key](operationId);
      jest.restoreAllMocks();
      for (const stream of opened.splice(0)) await stream.body?.cancel();
      expect({ operationId, key, status: response.status, body: await response.json() }).toEqual({ operationId, key, status: example.value.status, body: example.value });
      checked.push(`${operationId} ${key}`);
    }
    // Every operation's 401, 403, 429, 500 and 503 at least.
    expect(checked.length).toBeGreaterThanOrEqual(20);
  });
});
