import type { Pet } from '@petstore/contract';
import { PetStore } from '../src/app/pets/pet.store';
import { expectError } from './support/assertions';
import { type RawResponse, rawRequest } from './support/raw-http';
import { AUTH, JSON_AUTH, startApp, TEST_KEY, type TestApp } from './support/test-app';

const PUBLIC_BASE_URL = 'https://petstore.example.com/v1';
const STAGING_BASE_URL = 'https://staging.petstore.example.com:8443/v1';
const APP_ORIGIN = 'https://app.example.com';

/** Every response this suite saw, for the checks at the end: no 5xx nobody asked for, the key nowhere. */
const seen: Array<{ what: string; status: number; headers: string; body: string; crash?: boolean }> = [];
/** The log output of every app this suite started, collected before each one stops. */
const logs: string[] = [];

async function record(what: string, response: Response, crash = false): Promise<Response> {
  const headers = JSON.stringify([...response.headers]);
  seen.push({ what, status: response.status, headers, body: await response.clone().text(), crash });
  return response;
}

async function send(app: TestApp, path: string, init: RequestInit = {}): Promise<Response> {
  return record(`${init.method ?? 'GET'} ${path}`, await fetch(`${app.origin}${path}`, init));
}

async function sendRaw(app: TestApp, payload: string): Promise<RawResponse> {
  const response = await rawRequest(app.origin, payload);
  seen.push({ what: payload.slice(0, 60), status: response.status, headers: JSON.stringify(response.headers), body: response.body });
  return response;
}

/** The Content-Security-Policy as directive -> sources. */
function csp(response: Response): Record<string, string[]> {
  const header = response.headers.get('content-security-policy') ?? '';
  return Object.fromEntries(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** Headers that steer a document: on our pages, never on the API's JSON (docs/security.md). */
const DOCUMENT_ONLY_HEADERS = [
  'referrer-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/** OWASP's REST list on every API answer; helmet's page headers on Swagger UI and its files. */
function expectSecurityHeaders(response: Response): void {
  const headers = Object.fromEntries(response.headers);
  const docs = /^\/docs(\/|$)/.test(new URL(response.url).pathname);
  expect(headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'x-frame-options': docs ? 'SAMEORIGIN' : 'DENY',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'cross-origin-resource-policy': 'same-origin',
    // The health probes add no-cache and must-revalidate, for caches before HTTP/1.1.
    'cache-control': docs ? 'no-cache' : expect.stringMatching(/(^|, )no-store(,|$)/),
  });
  if (docs) {
    expect(headers).toMatchObject({
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'x-permitted-cross-domain-policies': 'none',
      'x-dns-prefetch-control': 'off',
    });
  } else {
    expect(DOCUMENT_ONLY_HEADERS.filter((name) => name in headers)).toEqual([]);
  }
  expect(headers).not.toHaveProperty('x-powered-by');
  const policy = csp(response);
  if (!docs) {
    // JSON loads nothing and is never framed.
    expect(policy).toEqual({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
    return;
  }
  expect(policy).toMatchObject({
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'self'"],
    'connect-src': ["'self'", 'https://petstore.example.com', 'https://staging.petstore.example.com:8443'],
  });
  // The service speaks plain HTTP; upgrading /docs' own files to https:// would break it on any non-local host.
  expect(policy).not.toHaveProperty('upgrade-insecure-requests');
}

describe('hardening', () => {
  let sut: TestApp;
  const stored: Pet[] = [];

  const createPet = async (body: unknown) => {
    const response = await send(sut, '/v1/pets', { method: 'POST', headers: JSON_AUTH, body: JSON.stringify(body) });
    expect(response.status).toBe(201);
    const pet = (await response.json()) as Pet;
    stored.push(pet);
    return pet;
  };

  beforeAll(async () => {
    sut = await startApp({ env: { PUBLIC_BASE_URL, STAGING_BASE_URL } });
    await createPet({ name: 'Rex', categoryId: 1 });
  });
  afterAll(async () => {
    logs.push(sut.rawLogs());
    await sut.close();
  });

  describe('security headers', () => {
    const big = JSON.stringify({ name: 'x'.repeat(17 * 1024), categoryId: 1 });
    it.each<[string, () => Promise<Response>, number, Parameters<typeof expectError>[2] | undefined]>([
      ['listPets 200', () => send(sut, '/v1/pets', { headers: AUTH }), 200, undefined],
      ['createPet 201', () => send(sut, '/v1/pets', { method: 'POST', headers: JSON_AUTH, body: '{"name":"Tom","categoryId":2}' }), 201, undefined],
      ['getPet 200', () => send(sut, `/v1/pets/${stored[0].id}`, { headers: AUTH }), 200, undefined],
      ['a validation error', () => send(sut, '/v1/pets?limit=0', { headers: AUTH }), 400, 'validation_failed'],
      ['malformed JSON', () => send(sut, '/v1/pets', { method: 'POST', headers: JSON_AUTH, body: '{"name":' }), 400, 'malformed_json'],
      ['no key', () => send(sut, '/v1/pets'), 401, 'unauthorized'],
      ['no key on getPet', () => send(sut, '/v1/pets/1'), 401, 'unauthorized'],
      ['an unknown pet', () => send(sut, '/v1/pets/999999', { headers: AUTH }), 404, 'not_found'],
      ['an unknown route', () => send(sut, '/nope'), 404, 'not_found'],
      ['a wrong method', () => send(sut, '/v1/pets', { method: 'DELETE', headers: AUTH }), 405, 'method_not_allowed'],
      ['a body over 16 KiB', () => send(sut, '/v1/pets', { method: 'POST', headers: JSON_AUTH, body: big }), 413, 'payload_too_large'],
      ['a URL over 8 KiB', () => send(sut, `/v1/pets?pad=${'x'.repeat(8 * 1024)}`, { headers: AUTH }), 414, 'uri_too_long'],
      [
        'a body that is not JSON',
        () => send(sut, '/v1/pets', { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: 'Rex' }),
        415,
        'unsupported_media_type',
      ],
      ['headers over 16 KiB', () => send(sut, '/v1/pets', { headers: { ...AUTH, 'x-pad': 'x'.repeat(17 * 1024) } }), 431, 'header_too_large'],
      ['Swagger UI', () => send(sut, '/docs'), 200, undefined],
      ['a Swagger UI file', () => send(sut, '/docs/swagger-ui-init.js'), 200, undefined],
      ['the OpenAPI document', () => send(sut, '/docs/openapi.json'), 200, undefined],
      ['liveness', () => send(sut, '/health/live'), 200, undefined],
      ['readiness', () => send(sut, '/health/ready'), 200, undefined],
    ])('are on the answer to %s', async (_label, call, status, code) => {
      const response = await call();
      expectSecurityHeaders(response);
      if (code) await expectError(response, status, code);
      else expect(response.status).toBe(status);
    });

    it('are on a 500 too', async () => {
      const failure = jest.spyOn(sut.app.get(PetStore), 'findPage').mockRejectedValue(new Error('boom'));
      try {
        const response = await record('GET /v1/pets (crash)', await fetch(`${sut.origin}/v1/pets`, { headers: AUTH }), true);
        expectSecurityHeaders(response);
        await expectError(response, 500, 'internal_error');
      } finally {
        failure.mockRestore();
      }
    });

    it('leave Swagger UI what it needs: same-origin scripts, inline styles, data: images, the servers for "Try it out"', async () => {
      const response = await send(sut, '/docs');
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      // script-src 'self' allows no inline script: every script must be a file of this origin.
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map(([, attributes]) => attributes);
      expect(scripts.length).toBeGreaterThan(0);
      for (const attributes of scripts) expect(attributes).toMatch(/\bsrc=["'](?!https?:|\/\/)[^"']+["']/);
      expect(html).toMatch(/<style>/);
      const policy = csp(response);
      expect(policy['style-src']).toContain("'unsafe-inline'");
      expect(policy['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:']));
      // The document's servers are the origins "Try it out" calls: 'self' for the first, relative, the others by name.
      const document = (await (await send(sut, '/docs/openapi.json')).json()) as { servers: Array<{ url: string }> };
      expect(document.servers[0].url).toBe('/v1');
      const origins = document.servers.slice(1).map(({ url }) => new URL(url).origin);
      expect(policy['connect-src']).toEqual(["'self'", ...origins]);
    });

    it('are the API\'s on what the router refuses before any hook runs', async () => {
      for (const [path, status, code] of [
        ['/v1/pets/%E0%A4%A', 400, 'bad_request'],
        // A path parameter longer than the router takes is a URL over 8 KiB, not a malformed one.
        [`/v1/pets/${'1'.repeat(8 * 1024 + 1)}`, 414, 'uri_too_long'],
      ] as const) {
        const response = await send(sut, path, { headers: AUTH });
        await expectError(response, status, code);
        expectSecurityHeaders(response);
        expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
      }
    });

    it('are the API\'s on what Node refuses before Fastify sees it', async () => {
      const response = await sendRaw(sut, 'HELLO\r\n\r\n');
      expect(response.status).toBe(400);
      expect(response.headers).toMatchObject({
        'content-security-policy': "default-src 'none';frame-ancestors 'none'",
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
        'cross-origin-resource-policy': 'same-origin',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
      });
      expect(JSON.parse(response.body)).toEqual({ code: 'bad_request', message: expect.any(String), status: 400 });
    });
  });

  describe('CORS', () => {
    const preflight = (app: TestApp, origin: string) =>
      send(app, '/v1/pets', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
    const corsHeaders = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

    describe('without CORS_ORIGINS', () => {
      it('adds no Access-Control-* header to a request with an Origin', async () => {
        const response = await send(sut, '/v1/pets', { headers: { ...AUTH, origin: APP_ORIGIN } });
        expect(response.status).toBe(200);
        expect(corsHeaders(response)).toEqual([]);
      });

      it('answers a preflight 405 like any other OPTIONS', async () => {
        const response = await preflight(sut, APP_ORIGIN);
        await expectError(response, 405, 'method_not_allowed');
        expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
        expect(corsHeaders(response)).toEqual([]);
        expectSecurityHeaders(response);
      });
    });

    describe(`with CORS_ORIGINS=${APP_ORIGIN}`, () => {
      let cors: TestApp;
      beforeAll(async () => {
        cors = await startApp({ env: { CORS_ORIGINS: APP_ORIGIN, PUBLIC_BASE_URL, STAGING_BASE_URL } });
      });
      afterAll(async () => {
        logs.push(cors.rawLogs());
        await cors.close();
      });

      it('answers a preflight from that origin with 204, without a key, before authentication', async () => {
        const response = await preflight(cors, APP_ORIGIN);
        expect(response.status).toBe(204);
        expect(await response.text()).toBe('');
        expect(Object.fromEntries(response.headers)).toMatchObject({
          'access-control-allow-origin': APP_ORIGIN,
          'access-control-allow-methods': 'GET, HEAD, POST',
          'access-control-allow-headers': 'authorization, content-type, idempotency-key, x-request-id, last-event-id',
          'access-control-max-age': '600',
        });
        expect(response.headers.get('access-control-allow-credentials')).toBeNull();
        expect(response.headers.get('vary')).toMatch(/\bOrigin\b/i);
      });

      it('lets that origin read the response and the headers it needs', async () => {
        const response = await send(cors, '/v1/pets?limit=1', { headers: { ...AUTH, origin: APP_ORIGIN } });
        expect(response.status).toBe(200);
        expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
        const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
        expect(exposed).toEqual(
          expect.arrayContaining(['link', 'location', 'x-request-id', 'retry-after', 'ratelimit', 'ratelimit-policy', 'deprecation', 'sunset']),
        );
        expectSecurityHeaders(response);
      });

      it('lets that origin follow the event stream, resuming by Last-Event-ID', async () => {
        const reading = new AbortController();
        try {
          const response = await fetch(`${cors.origin}/v1/events`, { headers: { ...AUTH, origin: APP_ORIGIN, 'last-event-id': '0' }, signal: reading.signal });
          expect(response.status).toBe(200);
          expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
          expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
          expect((response.headers.get('access-control-expose-headers') ?? '').split(/,\s*/)).toContain('x-request-id');
        } finally {
          reading.abort();
        }
      });

      it('lets that origin read a 401, so that a browser app can tell a missing key from a network failure', async () => {
        const response = await send(cors, '/v1/pets', { headers: { origin: APP_ORIGIN } });
        await expectError(response, 401, 'unauthorized');
        expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
        expectSecurityHeaders(response);
      });

      it('gives any other origin nothing: no Allow-Origin, and a 405 to its preflight', async () => {
        const response = await send(cors, '/v1/pets', { headers: { ...AUTH, origin: 'https://evil.example.com' } });
        expect(response.status).toBe(200);
        expect(corsHeaders(response)).toEqual([]);
        const other = await preflight(cors, 'https://app.example.com.evil.example.com');
        await expectError(other, 405, 'method_not_allowed');
        expect(corsHeaders(other)).toEqual([]);
      });

      it('keeps 404 and 405 as they were: an OPTIONS without Origin, and an unknown path', async () => {
        await expectError(await send(cors, '/v1/pets', { method: 'OPTIONS', headers: AUTH }), 405, 'method_not_allowed');
        await expectError(await send(cors, '/nope', { headers: AUTH }), 404, 'not_found');
        await expectError(await send(cors, '/nope', { method: 'OPTIONS' }), 404, 'not_found');
      });
    });
  });

  describe('SQL injection', () => {
    const INJECTIONS = [
      "' OR 1=1 --",
      '1; DROP TABLE pets',
      '"); DELETE FROM pets; --',
      "Robert'); DROP TABLE pets;--",
      "' UNION SELECT name, sql FROM sqlite_master --",
      "1' AND pg_sleep(5) IS NULL --",
    ];

    it.each(INJECTIONS)('stores the name %j exactly as sent, and reads it back', async (name) => {
      const pet = await createPet({ name, categoryId: 1, status: 'pending' });
      expect(pet.name).toBe(name);
      const read = await send(sut, `/v1/pets/${pet.id}`, { headers: AUTH });
      expect(((await read.json()) as Pet).name).toBe(name);
      expect((await sut.storedPets()).find(({ id }) => id === pet.id)?.name).toBe(name);
    });

    it.each(INJECTIONS)('refuses %j as status, categoryId, limit, cursor, petId and a parameter name, naming each', async (value) => {
      const bad = async (path: string, init: RequestInit, named: string) => {
        const message = await expectError(await send(sut, path, init), 400, 'validation_failed');
        expect(message).toContain(named);
      };
      const encoded = encodeURIComponent(value);
      await bad('/v1/pets', { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: 'a', categoryId: 1, status: value }) }, 'status');
      await bad('/v1/pets', { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: 'a', categoryId: value }) }, 'categoryId');
      for (const parameter of ['status', 'limit', 'cursor']) await bad(`/v1/pets?${parameter}=${encoded}`, { headers: AUTH }, parameter);
      await bad(`/v1/pets/${encoded}`, { headers: AUTH }, 'petId');
      await bad(`/v1/pets?${encoded}=1`, { headers: AUTH }, value);
    });

    it('leaves every stored pet in place', async () => {
      expect(await sut.storedPets()).toEqual(expect.arrayContaining(stored));
      const listed = (await (await send(sut, '/v1/pets?limit=100', { headers: AUTH })).json()) as Pet[];
      expect(listed).toEqual(expect.arrayContaining(stored));
    });
  });

  describe('request smuggling and malformed requests', () => {
    const auth = `Authorization: ${AUTH.authorization}\r\n`;
    const body = '{"name":"smuggled","categoryId":1}';
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const post = (headers: string, payload: string, version = '1.1') =>
      `POST /v1/pets HTTP/${version}\r\nHost: x\r\n${auth}Content-Type: application/json\r\n${headers}\r\n${payload}`;
    const get = (headers: string) => `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${auth}${headers}\r\n`;

    it.each([
      ['two different Content-Length headers', post(`Content-Length: ${body.length}\r\nContent-Length: ${body.length + 1}\r\n`, body)],
      ['a Content-Length list', post(`Content-Length: ${body.length}, ${body.length}\r\n`, body)],
      ['a chunk size that is not hexadecimal', post('Transfer-Encoding: chunked\r\n', `zz\r\n${body}\r\n0\r\n\r\n`)],
      ['Transfer-Encoding: gzip, chunked', post('Transfer-Encoding: gzip, chunked\r\n', chunked)],
      ['Transfer-Encoding: chunked, gzip', post('Transfer-Encoding: chunked, gzip\r\n', chunked)],
      ['an unknown transfer coding', post('Transfer-Encoding: x-custom\r\n', body)],
      ['Transfer-Encoding twice', post('Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n', chunked)],
      ['Transfer-Encoding on HTTP/1.0', post('Transfer-Encoding: chunked\r\n', chunked, '1.0')],
      ['two Host headers', get('Host: y\r\n')],
      ['a space before the colon', get('X-Note : a\r\n')],
      ['a NUL byte in a header value', get('X-Note: a\0b\r\n')],
      ['a lone CR in a header value', get('X-Note: a\rb\r\n')],
      ['an obs-fold continuation line', get('X-Note: a\r\n b\r\n')],
      ['lines ending in a bare LF', `GET /v1/pets HTTP/1.1\nHost: x\n${auth.replace('\r', '')}\n`],
    ])('refuses %s with 400 bad_request and closes the connection', async (_label, payload) => {
      const response = await sendRaw(sut, payload);
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(response.body)).toEqual({ code: 'bad_request', message: expect.any(String), status: 400 });
      expect(response.headers.connection).toBe('close');
      expect((await send(sut, '/health/live')).status).toBe(200);
    });

    it('accepts plain chunked framing, and stored none of the refused bodies', async () => {
      const response = await sendRaw(sut, post('Transfer-Encoding: chunked\r\n', chunked.replace('smuggled', 'chunked!')));
      expect(response.status).toBe(201);
      stored.push(JSON.parse(response.body) as Pet);
      expect((await sut.storedPets()).filter(({ name }) => name === 'smuggled')).toEqual([]);
    });
  });

  describe('prototype pollution', () => {
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const pet = '"name":"p","categoryId":1';

    it.each([
      `{${pet},"__proto__":{"polluted":true}}`,
      `{${pet},"tags":{"__proto__":{"polluted":true}}}`,
      `{${pet},"tags":[1,{"__proto__":{"polluted":true}}]}`,
      `[{"__proto__":{"polluted":true}}]`,
      `{${pet},"constructor":{"prototype":{"polluted":true}}}`,
      `{${pet},"tags":{"constructor":{"prototype":{"polluted":true}}}}`,
      `{${pet},"\\u005f_proto__":{"polluted":true}}`,
      `{${pet},"\\u005F\\u005F\\u0070roto\\u005f\\u005f":{"polluted":true}}`,
      `{${pet},"constructor":{"\\u0070rototype":{"polluted":true}}}`,
    ])('refuses %s with 400 and pollutes nothing', async (payload) => {
      const count = (await sut.storedPets()).length;
      await expectError(await send(sut, '/v1/pets', { method: 'POST', headers: JSON_AUTH, body: payload }), 400, 'validation_failed');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
      expect(await sut.storedPets()).toHaveLength(count);
    });

    // The object mapper drops these two keys silently, so they must not slip past the unknown-property check.
    it.each([`{${pet},"__proto__":1}`, `{${pet},"constructor":1}`, `{${pet},"constructor":{"polluted":true}}`])(
      'refuses the body %s, naming the key',
      async (payload) => {
        const response = await send(sut, '/v1/pets', { method: 'POST', headers: JSON_AUTH, body: payload });
        expect(await expectError(response, 400, 'validation_failed')).toMatch(/__proto__|constructor/);
      },
    );

    it.each([
      ['__proto__[polluted]=1', '__proto__[polluted]'],
      ['__proto__.polluted=1', '__proto__.polluted'],
      ['constructor[prototype][polluted]=1', 'constructor[prototype][polluted]'],
      ['__proto__=1', '__proto__'],
      ['constructor=1', 'constructor'],
      ['limit=1&__proto__=1&constructor=1', 'constructor'],
    ])('refuses the query %s with 400, naming %s, and pollutes nothing', async (query, named) => {
      for (const path of ['/v1/pets', '/v1/pets/1']) {
        const message = await expectError(await send(sut, `${path}?${query}`, { headers: AUTH }), 400, 'validation_failed');
        expect(message).toContain(`"${named}"`);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    });
  });

  describe('the canary key', () => {
    it.each([
      ['a near miss', { authorization: `Bearer ${TEST_KEY}x` }],
      ['another scheme', { authorization: `Basic ${TEST_KEY}` }],
      ['trailing words', { authorization: `Bearer ${TEST_KEY} please` }],
      ['the key without a scheme', { authorization: TEST_KEY }],
    ])('is not echoed when refused as %s', async (_label, headers) => {
      await expectError(await send(sut, '/v1/pets', { headers }), 401, 'unauthorized');
    });

    it('is not echoed when sent twice', async () => {
      const line = `Authorization: ${AUTH.authorization}\r\n`;
      const response = await sendRaw(sut, `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${line}${line}\r\n`);
      expect(response.status).toBe(401);
      expect(JSON.parse(response.body)).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 });
    });
  });
});

// Runs after every describe above has finished and its apps have stopped.
describe('across all of the above', () => {
  it('no response was a 5xx that the test did not cause on purpose', () => {
    expect(seen.length).toBeGreaterThan(100);
    expect(seen.filter(({ status, crash }) => status >= 500 && !crash).map(({ what, status }) => `${status} ${what}`)).toEqual([]);
  });

  it('the canary key appeared in no response header or body, and in no log line', () => {
    expect(seen.filter(({ headers, body }) => headers.includes(TEST_KEY) || body.includes(TEST_KEY)).map(({ what }) => what)).toEqual([]);
    expect(logs).toHaveLength(2);
    for (const output of logs) {
      expect(output.length).toBeGreaterThan(0);
      expect(output).not.toContain(TEST_KEY);
    }
  });
});
