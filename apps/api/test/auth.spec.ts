import { Controller, Get, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Public } from '../src/app/auth/public.decorator';
import { RouteRules } from '../src/app/http/route-rules';
import { expectError } from './support/assertions';
import { rawRequest } from './support/raw-http';
import { AUTH, TEST_KEY, startApp, type TestApp } from './support/test-app';

describe('authentication', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await startApp({ env: { API_KEYS: `${TEST_KEY}, pk_second_key_0123456789` } });
  });
  afterAll(() => sut.close());

  const operations: Array<[string, string, string]> = [
    ['listPets', 'GET', '/v1/pets'],
    ['createPet', 'POST', '/v1/pets'],
    ['getPet', 'GET', '/v1/pets/1'],
  ];

  describe.each(operations)('%s', (_name, method, path) => {
    const call = (headers: Record<string, string>) => fetch(`${sut.origin}${path}`, { method, headers });

    it.each([
      ['no Authorization header', {}],
      ['an unknown key', { authorization: 'Bearer pk_not_a_key_0123456789' }],
      ['another scheme', { authorization: `Basic ${Buffer.from(`u:${TEST_KEY}`).toString('base64')}` }],
      ['the scheme without a token', { authorization: 'Bearer' }],
      ['a token that is not token68', { authorization: 'Bearer a b c' }],
      ['the bare key without a scheme', { authorization: TEST_KEY }],
      ['a key with a prefix of the valid one', { authorization: `Bearer ${TEST_KEY.slice(0, -1)}` }],
    ])('answers 401 with WWW-Authenticate for %s', async (_label, headers) => {
      const response = await call(headers);
      expect(await expectError(response, 401, 'unauthorized')).toBe('A valid API key is required: send it as "Authorization: Bearer <key>".');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    });
  });

  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('accepts the scheme word written %s', async (scheme) => {
    const response = await fetch(`${sut.origin}/v1/pets`, { headers: { authorization: `${scheme} ${TEST_KEY}` } });
    expect(response.status).toBe(200);
  });

  it('accepts every configured key', async () => {
    const response = await fetch(`${sut.origin}/v1/pets`, { headers: { authorization: 'Bearer pk_second_key_0123456789' } });
    expect(response.status).toBe(200);
  });

  it('decides before the body: an unauthenticated bad, huge or wrongly typed body gets 401', async () => {
    const bodies: Array<[string, string]> = [
      ['application/json', '{not json'],
      ['application/json', JSON.stringify({ pad: 'x'.repeat(64 * 1024) })],
      ['text/plain', 'hello'],
      ['application/json', '{"name":""}'],
    ];
    for (const [type, body] of bodies) {
      const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: { 'content-type': type }, body });
      await expectError(response, 401, 'unauthorized');
    }
  });

  it('refuses duplicate Authorization headers, even when both are valid', async () => {
    const response = await rawRequest(
      sut.origin,
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`,
    );
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('never echoes the presented key', async () => {
    const response = await fetch(`${sut.origin}/v1/pets`, { headers: { authorization: 'Bearer pk_guess_ABCDEFGHIJKLMNOP' } });
    expect(await response.text()).not.toContain('pk_guess');
  });

  it('leaves docs and health open', async () => {
    for (const path of ['/docs', '/docs/openapi.json', '/health/live', '/health/ready', '/health/routable']) {
      expect((await fetch(`${sut.origin}${path}`)).status).toBe(200);
    }
  });

  it('does not need a key to learn that a route does not exist', async () => {
    await expectError(await fetch(`${sut.origin}/v1/nothing-here`), 404, 'not_found');
  });
});

/** Under /v1 like every controller: public only where declared, its rules kept whichever decorator comes first. */
@Controller('probes')
class ProbesController {
  @Get('open')
  @Public()
  open() {
    return { open: true };
  }

  @Get('open-with-rules-below')
  @Public()
  @RouteRules({ noQuery: true, headers: { 'x-probe': 'below' } })
  openWithRulesBelow() {
    return { open: true };
  }

  @Get('open-with-rules-above')
  @RouteRules({ noQuery: true, headers: { 'x-probe': 'above' } })
  @Public()
  openWithRulesAbove() {
    return { open: true };
  }

  @Get('closed')
  closed() {
    return { open: false };
  }
}

/** Every handler of a public controller is public, and keeps its own rules. */
@Public()
@Controller('open-probes')
class OpenProbesController {
  @Get()
  @RouteRules({ noQuery: true, headers: { 'x-probe': 'class' } })
  open() {
    return { open: true };
  }
}

/** Routes outside /v1 that no decorator reaches, as a plugin would add them: they need a key unless declared public. */
@Module({ controllers: [ProbesController, OpenProbesController] })
class ProbesModule implements OnModuleInit {
  constructor(private readonly adapter: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter.getInstance();
    fastify.get('/outside', async () => ({ open: false }));
    fastify.get('/outside-open', { config: { public: true } satisfies RouteRules }, async () => ({ open: true }));
  }
}

describe('authentication is what each route declares, not where it lives', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await startApp({ modules: [ProbesModule], env: { RATE_LIMIT_RPS: '1000' } });
  });
  afterAll(() => sut.close());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${sut.origin}${path}`, { headers });

  it.each(['/v1/probes/open', '/v1/probes/open-with-rules-below', '/v1/probes/open-with-rules-above', '/v1/open-probes', '/outside-open'])(
    'answers %s, declared public, without a key and outside the per-key limit',
    async (path) => {
      for (const method of ['GET', 'HEAD']) {
        const response = await fetch(`${sut.origin}${path}`, { method });
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit')).toBeNull();
      }
    },
  );

  it.each(['/v1/probes/closed', '/outside'])('refuses %s, not declared public, without a key, and counts it with one', async (path) => {
    for (const method of ['GET', 'HEAD']) expect((await fetch(`${sut.origin}${path}`, { method })).status).toBe(401);
    await expectError(await get(path), 401, 'unauthorized');
    const response = await get(path, AUTH);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=1$/);
  });

  it.each([
    ['/v1/probes/open-with-rules-below', 'below'],
    ['/v1/probes/open-with-rules-above', 'above'],
    ['/v1/open-probes', 'class'],
  ])('keeps the other rules of %s beside @Public()', async (path, probe) => {
    expect((await get(path)).headers.get('x-probe')).toBe(probe);
    const refused = await get(`${path}?stray=1`);
    expect(refused.headers.get('x-probe')).toBe(probe);
    expect(await expectError(refused, 400, 'validation_failed')).toContain('stray');
  });
});
