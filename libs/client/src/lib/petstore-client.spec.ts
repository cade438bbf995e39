import { inspect } from 'node:util';
import { API_VERSION, PET_FILTERS, type PetFilterName, type PetFilters, PetStatus, type Pet } from '@petstore/contract';
import {
  AbortError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PayloadTooLargeError,
  PetstoreApiError,
  PetstoreError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  ForbiddenError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
} from './errors';
import { type IteratePetsParams, type ListPetsParams, PetstoreClient, type PetPage } from './petstore-client';
import { json, scriptedFetch } from './testing';

const KEY = 'pk_client_canary_29f1c7';
const BASE = 'https://pets.example.com/v1';
const rex: Pet = { id: 1, name: 'Rex', categoryId: 2, status: PetStatus.Available };
const problem = (status: number, code: string, message = `${code} happened.`) => json(status, { code, message, status }, { 'x-request-id': 'req-1' });

/** A fetch that never answers, and rejects as the platform's does when its signal aborts. */
function hangingFetch() {
  const calls: RequestInit[] = [];
  const fetch = (_input: unknown, init: RequestInit = {}) => {
    calls.push(init);
    return new Promise<Response>((_resolve, reject) =>
      init.signal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError'))),
    );
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

function client(fetch: typeof globalThis.fetch, options: Partial<ConstructorParameters<typeof PetstoreClient>[0]> = {}) {
  const logger = { warn: jest.fn() };
  const sut = new PetstoreClient({ baseUrl: BASE, apiKey: KEY, fetch, logger, ...options });
  return { sut, logger };
}

describe(PetstoreClient.name, () => {
  it('needs an API key', () => {
    const untyped = (options: unknown) => new PetstoreClient(options as ConstructorParameters<typeof PetstoreClient>[0]);
    for (const options of [{ apiKey: '' }, { apiKey: 42 }, {}, undefined]) {
      expect(() => untyped(options)).toThrow(new TypeError('PetstoreClient needs an apiKey.'));
    }
  });

  it('drops trailing slashes from the base address', () => {
    expect(new PetstoreClient({ apiKey: KEY, baseUrl: `${BASE}//` }).baseUrl).toBe(BASE);
  });

  it('defaults to the local service address', () => {
    expect(new PetstoreClient({ apiKey: KEY }).baseUrl).toBe('http://localhost:3000/v1');
  });

  it('refuses a base address it cannot resolve', () => {
    expect(() => new PetstoreClient({ apiKey: KEY, baseUrl: '/v1' })).toThrow(/absolute URL/);
  });

  describe('requests', () => {
    it('lists with the query it was given, the bearer key, JSON accept and a user agent', async () => {
      const { fetch, calls } = scriptedFetch(json(200, [rex]));
      const { sut } = client(fetch, { baseUrl: `${BASE}/`, userAgent: 'my-app/2.0' });
      await sut.listPets({ limit: 5, status: PetStatus.Sold, cursor: 'abc' });
      expect(calls).toEqual([
        {
          url: `${BASE}/pets?limit=5&status=sold&cursor=abc`,
          method: 'GET',
          headers: { accept: 'application/json', authorization: `Bearer ${KEY}`, 'user-agent': 'my-app/2.0' },
          body: undefined,
        },
      ]);
    });

    it('sends the name and category filters, a space as %20 and a plus as %2B', async () => {
      const { fetch, calls } = scriptedFetch(json(200, [rex]));
      await client(fetch).sut.listPets({ name: 'Mr Whiskers+1 & Zoë', categoryId: 7, limit: 2 });
      expect(calls[0].url).toBe(`${BASE}/pets?limit=2&name=Mr%20Whiskers%2B1%20%26%20Zo%C3%AB&categoryId=7`);
    });

    it("takes each filter of the contract's PET_FILTERS, of its field's type, and sends it, null as not given", async () => {
      // A filter added to PET_FILTERS fails the type-check here until both parameter lists have it (as nullable).
      type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
      type FilterParams = { [F in PetFilterName]?: PetFilters[F] | null };
      const everyFilter: [Same<Pick<ListPetsParams, PetFilterName>, FilterParams>, Same<Pick<IteratePetsParams, PetFilterName>, FilterParams>] = [true, true];
      expect(everyFilter).toEqual([true, true]);

      const { fetch, calls } = scriptedFetch(json(200, []), json(200, []));
      const values = { status: PetStatus.Pending, name: 'T-Rex', categoryId: 9 } satisfies Required<PetFilters>;
      await client(fetch).sut.listPets({ ...values, cursor: 'abc' });
      await client(fetch).sut.listPets({ status: null, name: null, categoryId: null });
      expect(calls.map(({ url }) => url)).toEqual([`${BASE}/pets?${new URLSearchParams({ ...values, categoryId: '9', cursor: 'abc' })}`, `${BASE}/pets`]);
      expect(Object.keys(values)).toEqual(Object.keys(PET_FILTERS));
    });

    it('names itself and its version as the user agent, unless told otherwise', async () => {
      const { fetch, calls } = scriptedFetch(json(200, []));
      await client(fetch).sut.listPets();
      expect(calls[0].headers['user-agent']).toBe(`petstore-client/${API_VERSION}`);
    });

    it('sends no user agent of its own in a browser, which sends its own', async () => {
      const global = globalThis as { document?: unknown };
      global.document = {};
      try {
        // The module decides once, when it loads, whether it runs in a browser.
        let loaded: typeof PetstoreClient = PetstoreClient;
        jest.isolateModules(() => {
          loaded = jest.requireActual<typeof import('./petstore-client')>('./petstore-client').PetstoreClient;
        });
        const { fetch, calls } = scriptedFetch(json(200, []));
        await new loaded({ baseUrl: BASE, apiKey: KEY, fetch }).listPets();
        expect(calls[0].headers).toEqual({ accept: 'application/json', authorization: `Bearer ${KEY}` });
      } finally {
        delete global.document;
      }
    });

    it('sends no query parameters it was not given', async () => {
      const { fetch, calls } = scriptedFetch(json(200, []));
      await client(fetch).sut.listPets();
      expect(calls[0].url).toBe(`${BASE}/pets`);
    });

    it('leaves out query parameters that are null or undefined', async () => {
      const { fetch, calls } = scriptedFetch(json(200, []), json(200, []));
      const { sut } = client(fetch);
      await sut.listPets({ limit: undefined, status: null, cursor: null });
      await sut.listPets({ limit: null, status: undefined, cursor: 'c2' });
      expect(calls.map((c) => c.url)).toEqual([`${BASE}/pets`, `${BASE}/pets?cursor=c2`]);
    });

    it('creates with a JSON body and an Idempotency-Key: the one given, or a new random one per call', async () => {
      const { fetch, calls } = scriptedFetch(json(201, rex), json(201, rex), json(201, rex));
      const { sut } = client(fetch);
      expect(await sut.createPet({ name: 'Rex', categoryId: 2 })).toEqual(rex);
      await sut.createPet({ name: 'Rex', categoryId: 2 });
      await sut.createPet({ name: 'Rex', categoryId: 2 }, { idempotencyKey: 'k-1' });
      expect(calls.map((c) => [c.method, c.url, c.headers['content-type'], c.body])).toEqual(
        Array(3).fill(['POST', `${BASE}/pets`, 'application/json', '{"name":"Rex","categoryId":2}']),
      );
      const [first, second, given] = calls.map((c) => c.headers['idempotency-key']);
      expect(first).toMatch(/^[0-9a-f-]{36}$/);
      expect(second).toMatch(/^[0-9a-f-]{36}$/);
      expect(second).not.toBe(first);
      expect(given).toBe('k-1');
    });

    it('sends no Idempotency-Key of its own when it may not retry', async () => {
      const { fetch, calls } = scriptedFetch(json(201, rex));
      await client(fetch, { maxRetries: 0 }).sut.createPet({ name: 'Rex', categoryId: 2 });
      expect(calls[0].headers['idempotency-key']).toBeUndefined();
    });

    it('treats a 3xx fetch did not follow as an unexpected response, not a success', async () => {
      const { fetch } = scriptedFetch(json(300, [rex]));
      const error = await client(fetch, { maxRetries: 0 }).sut.listPets().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PetstoreApiError);
      expect(error).toMatchObject({ status: 300, code: 'unexpected_response' });
    });

    it('gets one pet by id', async () => {
      const { fetch, calls } = scriptedFetch(json(200, rex));
      expect(await client(fetch).sut.getPet(1)).toEqual(rex);
      expect(calls[0].url).toBe(`${BASE}/pets/1`);
    });
  });

  describe('pagination', () => {
    const page = (pets: Pet[], cursor?: string) =>
      json(200, pets, cursor ? { link: `<https://elsewhere.example/v1/pets?limit=2&cursor=${cursor}>; rel="next"` } : {});
    const pets = [1, 2, 3, 4, 5].map((id) => ({ ...rex, id }));

    it('reads nextCursor from the Link header, null on the last page', async () => {
      const { fetch } = scriptedFetch(page(pets.slice(0, 2), 'c2'), page(pets.slice(4)));
      const { sut } = client(fetch);
      expect(await sut.listPets({ limit: 2 })).toEqual({ pets: pets.slice(0, 2), nextCursor: 'c2' });
      expect(await sut.listPets({ limit: 2, cursor: 'c2' })).toEqual({ pets: pets.slice(4), nextCursor: null });
    });

    it("takes the last page's null nextCursor back as no cursor, as untyped JavaScript passes it", async () => {
      const { fetch, calls } = scriptedFetch(page(pets.slice(4)), page(pets.slice(4)), page(pets.slice(4)));
      const { sut } = client(fetch);
      const last = await sut.listPets({ limit: 2 });
      expect(last.nextCursor).toBeNull();
      await sut.listPets({ limit: 2, cursor: last.nextCursor });
      const untyped = sut.listPets.bind(sut) as (params: unknown) => Promise<PetPage>;
      await untyped({ limit: 2, cursor: null });
      expect(calls.map((c) => c.url)).toEqual([`${BASE}/pets?limit=2`, `${BASE}/pets?limit=2`, `${BASE}/pets?limit=2`]);
    });

    it('iterates every page from its own base address, keeping status and page size', async () => {
      const { fetch, calls } = scriptedFetch(page(pets.slice(0, 2), 'c2'), page(pets.slice(2, 4), 'c4'), page(pets.slice(4)));
      const seen: Pet[] = [];
      for await (const pet of client(fetch).sut.iteratePets({ status: PetStatus.Available, pageSize: 2 })) seen.push(pet);
      expect(seen).toEqual(pets);
      expect(calls.map((c) => c.url)).toEqual([
        `${BASE}/pets?limit=2&status=available`,
        `${BASE}/pets?limit=2&status=available&cursor=c2`,
        `${BASE}/pets?limit=2&status=available&cursor=c4`,
      ]);
    });

    it('iterates with the name and category filters on every page', async () => {
      const { fetch, calls } = scriptedFetch(page(pets.slice(0, 2), 'c2'), page(pets.slice(2)));
      const seen: Pet[] = [];
      for await (const pet of client(fetch).sut.iteratePets({ name: 'rex', categoryId: 3, pageSize: 2 })) seen.push(pet);
      expect(seen).toEqual(pets);
      expect(calls.map((c) => c.url)).toEqual([`${BASE}/pets?limit=2&name=rex&categoryId=3`, `${BASE}/pets?limit=2&name=rex&categoryId=3&cursor=c2`]);
    });

    it('stops fetching when the caller stops iterating', async () => {
      const { fetch, calls } = scriptedFetch(page(pets.slice(0, 2), 'c2'));
      for await (const pet of client(fetch).sut.iteratePets({ pageSize: 2 })) {
        expect(pet.id).toBe(1);
        break;
      }
      expect(calls).toHaveLength(1);
    });
  });

  describe('errors', () => {
    it.each([
      [400, 'validation_failed', BadRequestError],
      [401, 'unauthorized', UnauthorizedError],
      [403, 'insufficient_scope', ForbiddenError],
      [404, 'not_found', NotFoundError],
      [409, 'idempotency_key_in_use', ConflictError],
      [413, 'payload_too_large', PayloadTooLargeError],
      [415, 'unsupported_media_type', UnsupportedMediaTypeError],
      [422, 'idempotency_key_reused', UnprocessableEntityError],
      [429, 'rate_limited', RateLimitError],
      [500, 'internal_error', ServerError],
      [503, 'service_unavailable', ServerError],
      [405, 'method_not_allowed', PetstoreApiError],
    ])('maps %i to %s as %p', async (status, code, ErrorClass) => {
      const { fetch } = scriptedFetch(problem(status, code, 'What went wrong.'));
      const error = await client(fetch, { maxRetries: 0 })
        .sut.createPet({ name: 'x', categoryId: 1 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toBeInstanceOf(PetstoreApiError);
      expect(error).toBeInstanceOf(PetstoreError);
      expect(error).toMatchObject({ status, code, message: 'What went wrong.', requestId: 'req-1', body: { code, status } });
    });

    it.each(['<html>Bad gateway</html>', 'null', '"Bad gateway"', '{"code":"bad_gateway"}'])(
      'keeps going with a response that is not an Error object: %s',
      async (body) => {
        const { fetch } = scriptedFetch(new Response(body, { status: 502 }));
        const error = await client(fetch, { maxRetries: 0 }).sut.listPets().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ServerError);
        expect(error).toMatchObject({ status: 502, code: 'unexpected_response', body: undefined, requestId: undefined });
        expect((error as Error).message).toBe('The service answered HTTP 502 without an Error body.');
      },
    );

    it.each([
      ['7', 7],
      ['0', 0],
      [undefined, undefined],
    ])('reads Retry-After %j into a RateLimitError', async (header, seconds) => {
      const headers: Record<string, string> = header === undefined ? {} : { 'retry-after': header };
      const { fetch } = scriptedFetch(json(429, { code: 'rate_limited', message: 'Slow down.', status: 429 }, headers));
      const error = await client(fetch, { maxRetries: 0 }).sut.listPets().catch((e: unknown) => e);
      expect((error as RateLimitError).retryAfterSeconds).toBe(seconds);
    });

    it('reports a 2xx body that is not JSON as an unexpected response', async () => {
      const { fetch } = scriptedFetch(new Response('<html>captive portal</html>', { status: 200 }));
      const error = await client(fetch).sut.listPets().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PetstoreApiError);
      expect(error).toMatchObject({ status: 200, code: 'unexpected_response', message: 'The service answered HTTP 200 with a body that is not JSON.' });
    });

    it('reports a network failure as a ConnectionError naming the origin, never the key', async () => {
      const { fetch } = scriptedFetch(new TypeError(`fetch failed for Bearer ${KEY}`), new TypeError('fetch failed'));
      const { sut } = client(fetch, { maxRetries: 0 });
      const quoting = await sut.listPets().catch((e: unknown) => e);
      expect(quoting).toBeInstanceOf(ConnectionError);
      expect((quoting as Error).message).toContain('https://pets.example.com');
      expect(inspect(quoting)).not.toContain(KEY);
      expect((quoting as Error).message).toBe('Could not reach https://pets.example.com: fetch failed for Bearer [redacted]');
      const plain = await sut.listPets().catch((e: unknown) => e);
      expect((plain as Error).cause).toBeInstanceOf(TypeError);
    });

    it("names the platform's cause of a network failure, as Node's fetch hides it there", async () => {
      const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:3000') });
      const { fetch } = scriptedFetch(refused);
      const error = await client(fetch, { maxRetries: 0 }).sut.listPets().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toBe('Could not reach https://pets.example.com: fetch failed (connect ECONNREFUSED 127.0.0.1:3000)');
    });

    it('reports a response that takes longer than timeoutMs as a TimeoutError', async () => {
      const never = (_input: unknown, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
      const error = await client(never as typeof globalThis.fetch, { timeoutMs: 20, maxRetries: 0 })
        .sut.listPets()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ timeoutMs: 20 });
    });
  });

  describe('retries', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it.each([408, 429, 500, 502, 503, 504])('retries a GET on %i, then succeeds', async (status) => {
      const { fetch, calls } = scriptedFetch(problem(status, 'x'), json(200, [rex]));
      expect(await settle(client(fetch).sut.listPets())).toEqual({ pets: [rex], nextCursor: null });
      expect(calls).toHaveLength(2);
    });

    it('retries a getPet on 503, as every read', async () => {
      const { fetch, calls } = scriptedFetch(problem(503, 'service_unavailable'), json(200, rex));
      expect(await settle(client(fetch).sut.getPet(1))).toEqual(rex);
      expect(calls).toHaveLength(2);
    });

    it('retries a GET after a connection error', async () => {
      const { fetch, calls } = scriptedFetch(new TypeError('fetch failed'), json(200, []));
      await settle(client(fetch).sut.listPets());
      expect(calls).toHaveLength(2);
    });

    it('gives up after maxRetries and throws the last error', async () => {
      const { fetch, calls } = scriptedFetch(problem(503, 'a'), problem(503, 'b'), problem(503, 'c'));
      const error = await settle(client(fetch, { maxRetries: 2 }).sut.listPets());
      expect(error).toMatchObject({ status: 503, code: 'c' });
      expect(calls).toHaveLength(3);
    });

    it.each([400, 401, 404, 409, 413, 415, 422])('never retries %i', async (status) => {
      const { fetch, calls } = scriptedFetch(problem(status, 'x'), json(200, []));
      await settle(client(fetch).sut.listPets());
      expect(calls).toHaveLength(1);
    });

    it('never retries a create without an idempotency key (maxRetries: 0)', async () => {
      const { fetch, calls } = scriptedFetch(problem(503, 'x'), json(201, rex));
      expect(await settle(client(fetch, { maxRetries: 0 }).sut.createPet({ name: 'Rex', categoryId: 2 }))).toBeInstanceOf(ServerError);
      expect(calls).toHaveLength(1);
    });

    it.each([
      ['a 503', problem(503, 'x')],
      ['a network failure', new TypeError('fetch failed')],
    ])('retries a create after %s with the same body and the key it made', async (_case, failure) => {
      const { fetch, calls } = scriptedFetch(failure, json(201, rex));
      expect(await settle(client(fetch).sut.createPet({ name: 'Rex', categoryId: 2 }))).toEqual(rex);
      expect(calls).toHaveLength(2);
      expect(calls[1]).toEqual(calls[0]);
    });

    it('retries a create that carries an idempotency key, with the same key and body', async () => {
      const { fetch, calls } = scriptedFetch(problem(503, 'x'), json(201, rex));
      await settle(client(fetch).sut.createPet({ name: 'Rex', categoryId: 2 }, { idempotencyKey: 'k-9' }));
      expect(calls).toHaveLength(2);
      expect(calls[1]).toEqual(calls[0]);
      expect(calls[1].headers['idempotency-key']).toBe('k-9');
    });

    it('waits out a 409 idempotency_key_in_use on a create, but no other 409', async () => {
      const running = scriptedFetch(problem(409, 'idempotency_key_in_use'), json(201, rex));
      expect(await settle(client(running.fetch).sut.createPet({ name: 'Rex', categoryId: 2 }))).toEqual(rex);
      expect(running.calls).toHaveLength(2);
      const other = scriptedFetch(problem(409, 'conflict'), json(201, rex));
      expect(await settle(client(other.fetch).sut.createPet({ name: 'Rex', categoryId: 2 }))).toBeInstanceOf(PetstoreApiError);
      expect(other.calls).toHaveLength(1);
    });

    it('waits as long as Retry-After says, capped by maxRetryDelayMs', async () => {
      const { fetch, calls } = scriptedFetch(json(429, {}, { 'retry-after': '3' }), json(200, []));
      const pending = client(fetch).sut.listPets();
      await jest.advanceTimersByTimeAsync(2_900);
      expect(calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(200);
      expect(calls).toHaveLength(2);
      await pending;

      const capped = scriptedFetch(json(503, {}, { 'retry-after': '3600' }), json(200, []));
      const cappedCall = client(capped.fetch, { maxRetryDelayMs: 1_000 }).sut.listPets();
      await jest.advanceTimersByTimeAsync(1_000);
      expect(capped.calls).toHaveLength(2);
      await cappedCall;
    });

    it('backs off exponentially with jitter when the service gives no Retry-After', async () => {
      // The top of each jitter range: the waits are then 250 ms, then 500 ms.
      jest.spyOn(Math, 'random').mockReturnValue(0.9999);
      const { fetch, calls } = scriptedFetch(problem(500, 'x'), problem(500, 'x'), json(200, []));
      const pending = client(fetch).sut.listPets();
      await jest.advanceTimersByTimeAsync(200);
      expect(calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(60);
      expect(calls).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(400);
      expect(calls).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(120);
      expect(calls).toHaveLength(3);
      await pending;
    });
  });

  describe('per-call options', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    const collect = async (pets: AsyncIterable<Pet>) => {
      const all: Pet[] = [];
      for await (const pet of pets) all.push(pet);
      return all;
    };

    it.each<[string, (sut: PetstoreClient, signal: AbortSignal) => Promise<unknown>]>([
      ['listPets', (sut: PetstoreClient, signal: AbortSignal) => sut.listPets({}, { signal })],
      ['iteratePets', (sut: PetstoreClient, signal: AbortSignal) => collect(sut.iteratePets({}, { signal }))],
      ['createPet', (sut: PetstoreClient, signal: AbortSignal) => sut.createPet({ name: 'Rex', categoryId: 2 }, { signal, idempotencyKey: 'k' })],
      ['getPet', (sut: PetstoreClient, signal: AbortSignal) => sut.getPet(1, { signal })],
    ])('%s sends nothing with a signal already aborted', async (_method, run) => {
      const { fetch, calls } = scriptedFetch(json(200, [rex]));
      const reason = new Error('cancelled before it began');
      const error = await settle(run(client(fetch).sut, AbortSignal.abort(reason)));
      expect(error).toBeInstanceOf(AbortError);
      expect(error).toMatchObject({ cause: reason });
      expect(calls).toHaveLength(0);
    });

    it('rejects with an AbortError when the signal aborts during a request, and sends no further attempt', async () => {
      const { fetch, calls } = hangingFetch();
      const controller = new AbortController();
      const pending = client(fetch).sut.createPet({ name: 'Rex', categoryId: 2 }, { signal: controller.signal });
      await jest.advanceTimersByTimeAsync(100);
      expect(calls).toHaveLength(1);
      const reason = new Error('the user left');
      controller.abort(reason);
      const abortedAt = Date.now();
      const error = await settle(pending);
      // Ended by the abort itself, not by the attempt's timeout and a retry's wait that would notice it later.
      expect(Date.now()).toBe(abortedAt);
      expect(error).toBeInstanceOf(AbortError);
      expect(error).toBeInstanceOf(PetstoreError);
      expect(error).toMatchObject({ name: 'AbortError', cause: reason });
      expect(calls).toHaveLength(1);
    });

    it('stops retrying when the signal aborts during the wait before a retry', async () => {
      const { fetch, calls } = scriptedFetch(json(503, {}, { 'retry-after': '20' }), json(200, []));
      const controller = new AbortController();
      const pending = client(fetch).sut.listPets({}, { signal: controller.signal });
      await jest.advanceTimersByTimeAsync(1_000);
      expect(calls).toHaveLength(1);
      controller.abort();
      // Rejected at once, with no time passing: the wait itself is cancelled.
      await expect(pending).rejects.toBeInstanceOf(AbortError);
      expect(jest.getTimerCount()).toBe(0);
      await jest.runAllTimersAsync();
      expect(calls).toHaveLength(1);
    });

    it('leaves no listener on the caller’s signal once the call is over', async () => {
      const { fetch } = scriptedFetch(problem(503, 'x'), json(200, []));
      const { signal } = new AbortController();
      const added = jest.spyOn(signal, 'addEventListener');
      const removed = jest.spyOn(signal, 'removeEventListener');
      await settle(client(fetch).sut.listPets({}, { signal }));
      expect(added.mock.calls.length).toBeGreaterThan(0);
      expect(removed.mock.calls).toEqual(added.mock.calls.map(([type, listener]) => [type, listener]));
    });

    it('makes one attempt with maxRetries: 0 for the call, and sends no key of its own on a create', async () => {
      const { fetch, calls } = scriptedFetch(problem(503, 'x'), problem(503, 'x'), json(200, []));
      const { sut } = client(fetch, { maxRetries: 2 });
      expect(await settle(sut.listPets({}, { maxRetries: 0 }))).toBeInstanceOf(ServerError);
      expect(await settle(sut.createPet({ name: 'Rex', categoryId: 2 }, { maxRetries: 0 }))).toBeInstanceOf(ServerError);
      expect(calls).toHaveLength(2);
      expect(calls[1].headers['idempotency-key']).toBeUndefined();
    });

    it("retries a call more than the client's maxRetries when the call asks", async () => {
      const { fetch, calls } = scriptedFetch(problem(503, 'x'), json(200, [rex]));
      expect(await settle(client(fetch, { maxRetries: 0 }).sut.listPets({}, { maxRetries: 1 }))).toEqual({ pets: [rex], nextCursor: null });
      expect(calls).toHaveLength(2);
    });

    it("times out each attempt after the call's timeoutMs, still as a TimeoutError when a signal is given", async () => {
      const { fetch, calls } = hangingFetch();
      const pending = client(fetch, { timeoutMs: 10_000, maxRetries: 0 })
        .sut.getPet(1, { timeoutMs: 50, signal: new AbortController().signal })
        .catch((e: unknown) => e);
      await jest.advanceTimersByTimeAsync(50);
      const error = await pending;
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ timeoutMs: 50 });
      expect(calls).toHaveLength(1);
    });

    it('passes the options on to every page of iteratePets', async () => {
      const first = json(200, [rex], { link: `<${BASE}/pets?cursor=c2>; rel="next"` });
      const failing = scriptedFetch(first, problem(503, 'x'), json(200, []));
      const error = await settle(collect(client(failing.fetch).sut.iteratePets({}, { maxRetries: 0 })));
      expect(error).toBeInstanceOf(ServerError);
      expect(failing.calls).toHaveLength(2);

      const paged = scriptedFetch(json(200, [rex], { link: `<${BASE}/pets?cursor=c2>; rel="next"` }), json(200, []));
      const controller = new AbortController();
      const pets = client(paged.fetch).sut.iteratePets({}, { signal: controller.signal });
      expect(await pets.next()).toEqual({ done: false, value: rex });
      controller.abort();
      await expect(pets.next()).rejects.toBeInstanceOf(AbortError);
      expect(paged.calls).toHaveLength(1);
    });
  });

  describe('deprecation', () => {
    const deprecated = () =>
      json(200, rex, {
        deprecation: '@1767225600',
        sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
        link: '</v1/pets>; rel="successor-version"',
      });

    it('warns once per operation through the logger when the service marks it deprecated', async () => {
      const { fetch } = scriptedFetch(deprecated(), deprecated(), json(200, []));
      const { sut, logger } = client(fetch);
      await sut.getPet(1);
      await sut.getPet(1);
      await sut.listPets();
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(logger.warn.mock.calls[0][0]).toBe(
        'petstore: getPet is deprecated by the service and will be removed after Thu, 05 Dec 2030 00:00:00 GMT; use /v1/pets instead.',
      );
    });

    it('names the operation it warns of, whichever it is', async () => {
      const { fetch } = scriptedFetch(json(200, [], { deprecation: '@1' }), json(201, rex, { deprecation: '@1' }));
      const { sut, logger } = client(fetch);
      await sut.listPets();
      await sut.createPet({ name: 'Rex', categoryId: 2 });
      expect(logger.warn.mock.calls).toEqual([['petstore: listPets is deprecated by the service.'], ['petstore: createPet is deprecated by the service.']]);
    });

    it.each([
      ['a Sunset alone', { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, 'petstore: getPet is deprecated by the service and will be removed after Thu, 05 Dec 2030 00:00:00 GMT.'],
      ['a successor without quotes or spaces', { deprecation: '@1', link: '</v1/pets>;rel=successor-version' }, 'petstore: getPet is deprecated by the service; use /v1/pets instead.'],
      ['a successor with a space before its parameters', { deprecation: '@1', link: '</v1/pets> ; rel="successor-version"' }, 'petstore: getPet is deprecated by the service; use /v1/pets instead.'],
    ])('reads %s', async (_case, headers, warning) => {
      const { fetch } = scriptedFetch(json(200, rex, headers));
      const { sut, logger } = client(fetch);
      await sut.getPet(1);
      expect(logger.warn.mock.calls).toEqual([[warning]]);
    });

    it('warns on deprecated error responses too', async () => {
      const { fetch } = scriptedFetch(
        json(404, { code: 'not_found', message: 'No pet.', status: 404 }, { deprecation: '@1', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }),
      );
      const { sut, logger } = client(fetch);
      await expect(sut.getPet(9)).rejects.toBeInstanceOf(NotFoundError);
      expect(logger.warn).toHaveBeenCalledTimes(1);
    });
  });

  describe('the API key', () => {
    it('never appears in the client or its errors', async () => {
      const { fetch } = scriptedFetch(problem(401, 'unauthorized'));
      const { sut } = client(fetch, { maxRetries: 0 });
      const error = await sut.listPets().catch((e: unknown) => e);
      for (const text of [inspect(sut), JSON.stringify(sut), inspect(error), JSON.stringify(error), String(error)]) {
        expect(text).not.toContain(KEY);
      }
    });
  });
});

/** Runs the call while advancing fake time, so that backoff sleeps pass instantly. */
async function settle<T>(promise: Promise<T>): Promise<T | unknown> {
  const outcome = promise.catch((e: unknown) => e);
  await jest.runAllTimersAsync();
  return outcome;
}
