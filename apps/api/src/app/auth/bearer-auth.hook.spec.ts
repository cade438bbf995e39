import Fastify, { type FastifyInstance, type onRequestHookHandler } from 'fastify';
import type { ApiException } from '../errors/api-exception';
import { declareRouteRules, useRouteRules } from '../http/route-rules';
import type { RateLimits } from '../rate-limit/rate-limits';
import { Metrics } from '../metrics/metrics';
import type { ApiKeysService } from './api-keys.service';
import { useBearerAuth } from './bearer-auth.hook';

describe(useBearerAuth.name, () => {
  const KEY = { authorization: 'Bearer good-key' };
  let calls: string[];
  let keys: { check: jest.Mock };
  let metrics: Metrics;
  let limits: { perKeyEnabled: boolean; assertAddressMayAuthenticate: jest.Mock; recordAuthenticationFailure: jest.Mock; consume: jest.Mock };
  let sut: FastifyInstance;

  const record = (name: string): onRequestHookHandler => async () => void calls.push(name);
  const ok = async () => ({ ok: true });
  const start = (register: (fastify: FastifyInstance) => void) => {
    sut = Fastify();
    sut.setErrorHandler((error: ApiException, _request, reply) => reply.code(error.getStatus()).headers(error.headers).send({ code: error.code }));
    register(sut);
    return sut.ready();
  };

  beforeEach(() => {
    calls = [];
    metrics = new Metrics();
    keys = {
      check: jest.fn(async (token: string) => {
        calls.push('authenticate');
        if (token === 'good-key') return { holder: 'env:holder', scopes: ['pets:read', 'pets:write'] };
        if (token === 'read-key') return { holder: 'key:2', scopes: ['pets:read'] };
        return { refused: token === 'old-key' ? 'revoked' : 'unknown' };
      }),
    };
    limits = {
      perKeyEnabled: true,
      assertAddressMayAuthenticate: jest.fn(async () => undefined),
      recordAuthenticationFailure: jest.fn(async () => ({})),
      consume: jest.fn(async () => {
        calls.push('consume');
        return { ratelimit: '"default";r=9;t=1' };
      }),
    };
  });
  afterEach(() => sut.close());

  const useAuth = (fastify: FastifyInstance) => useBearerAuth(fastify, keys as unknown as ApiKeysService, limits as unknown as RateLimits, metrics);

  it('refuses every route without a valid key, wherever it lives, unless its config declares it public', async () => {
    await start((fastify) => {
      useAuth(fastify);
      fastify.get('/v1/closed', ok);
      fastify.get('/elsewhere', ok);
      fastify.get('/v1/open', { config: { public: true } }, ok);
    });
    expect((await sut.inject({ url: '/v1/closed' })).statusCode).toBe(401);
    expect((await sut.inject({ url: '/elsewhere' })).statusCode).toBe(401);
    expect((await sut.inject({ url: '/elsewhere', headers: { authorization: 'Bearer bad-key' } })).statusCode).toBe(401);
    expect((await sut.inject({ url: '/elsewhere', headers: KEY })).statusCode).toBe(200);
    calls = [];
    const open = await sut.inject({ url: '/v1/open' });
    expect(open.statusCode).toBe(200);
    expect(open.headers.ratelimit).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it("runs first of the route's request hooks, the per-key limit next, whichever hooks were added first", async () => {
    await start((fastify) => {
      useRouteRules(fastify);
      useAuth(fastify);
      fastify.post('/v1/things', { config: { jsonBody: true }, onRequest: record('own') }, ok);
    });
    const refused = await sut.inject({ method: 'POST', url: '/v1/things', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(refused.json()).toEqual({ code: 'unauthorized' });
    expect(calls).toEqual([]);

    const unsupported = await sut.inject({ method: 'POST', url: '/v1/things', headers: { ...KEY, 'content-type': 'text/plain' }, body: 'x' });
    expect(unsupported.json()).toEqual({ code: 'unsupported_media_type' });
    expect(unsupported.headers.ratelimit).toBe('"default";r=9;t=1');
    expect(calls).toEqual(['authenticate', 'consume', 'own']);
  });

  it("refuses, 403, a valid key without the route's scope: after its rate limit, before the route's own hooks", async () => {
    await start((fastify) => {
      useRouteRules(fastify);
      useAuth(fastify);
      fastify.post('/v1/things', { config: { jsonBody: true, scope: 'pets:write' }, onRequest: record('own') }, ok);
      fastify.get('/v1/things', { config: { scope: 'pets:read' } }, ok);
    });
    const post = (authorization: string) =>
      sut.inject({ method: 'POST', url: '/v1/things', headers: { authorization, 'content-type': 'text/plain' }, body: 'x' });
    const forbidden = await post('Bearer read-key');
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ code: 'insufficient_scope' });
    expect(forbidden.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="pets:write"');
    expect(forbidden.headers.ratelimit).toBe('"default";r=9;t=1');
    expect(calls).toEqual(['authenticate', 'consume']);
    expect((await post('Bearer unknown-key')).statusCode).toBe(401);
    expect((await post(KEY.authorization)).statusCode).toBe(415);
    expect((await sut.inject({ url: '/v1/things', headers: { authorization: 'Bearer read-key' } })).statusCode).toBe(200);
    const refusals = await metrics.registry.getSingleMetric('petstore_auth_failures_total')?.get();
    expect(refusals?.values.find(({ labels }) => labels.reason === 'insufficient_scope')?.value).toBe(1);
  });

  it('adds no per-key limit when it is off', async () => {
    limits.perKeyEnabled = false;
    await start((fastify) => {
      useAuth(fastify);
      fastify.get('/v1/closed', ok);
    });
    const response = await sut.inject({ url: '/v1/closed', headers: KEY });
    expect(response.statusCode).toBe(200);
    expect(limits.consume).not.toHaveBeenCalled();
  });

  it('asks no key of a request that matches no route', async () => {
    await start((fastify) => {
      useAuth(fastify);
      fastify.get('/v1/closed', ok);
    });
    expect((await sut.inject({ url: '/v1/nothing' })).statusCode).toBe(404);
    expect((await sut.inject({ method: 'DELETE', url: '/v1/closed' })).statusCode).toBe(404);
    expect(keys.check).not.toHaveBeenCalled();
  });

  it('authenticates the HEAD route Fastify adds for a GET, once per request', async () => {
    await start((fastify) => {
      useAuth(fastify);
      fastify.get('/v1/closed', ok);
      fastify.get('/v1/open', { config: { public: true } }, ok);
    });
    expect((await sut.inject({ method: 'HEAD', url: '/v1/closed' })).statusCode).toBe(401);
    expect((await sut.inject({ method: 'HEAD', url: '/v1/open' })).statusCode).toBe(200);
    calls = [];
    expect((await sut.inject({ method: 'HEAD', url: '/v1/closed', headers: KEY })).statusCode).toBe(200);
    expect(calls).toEqual(['authenticate', 'consume']);
  });

  it("reads what declareRouteRules says of a plugin's routes, declared before it", async () => {
    await start((fastify) => {
      declareRouteRules(fastify, ({ url }) => url.startsWith('/plugin/'), { public: true });
      useAuth(fastify);
      void fastify.register(async (plugin) => {
        plugin.get('/plugin/page', ok);
        plugin.get('/other', ok);
      });
    });
    expect((await sut.inject({ url: '/plugin/page' })).statusCode).toBe(200);
    expect((await sut.inject({ url: '/other' })).statusCode).toBe(401);
  });

  it('counts each refusal by its reason, and each 429 by the limit it hit', async () => {
    limits.consume.mockRejectedValueOnce(new Error('429'));
    limits.assertAddressMayAuthenticate.mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('429'));
    await start((fastify) => {
      useAuth(fastify);
      fastify.get('/v1/closed', ok);
    });
    const send = (authorization?: string) => sut.inject({ url: '/v1/closed', headers: authorization ? { authorization } : {} });
    await send(KEY.authorization); // spends the per-key budget: 429
    await send(); // the address's failed authentications: 429
    for (const authorization of [undefined, 'Basic abc', 'Bearer a b', 'Bearer new-key', 'Bearer old-key']) await send(authorization);
    const counts = async (name: string) =>
      Object.fromEntries(((await metrics.registry.getSingleMetric(name)?.get())?.values ?? []).map(({ labels, value }) => [labels.reason, value]));
    expect(await counts('petstore_auth_failures_total')).toEqual({ missing: 1, malformed: 2, unknown: 1, revoked: 1, expired: 0, insufficient_scope: 0 });
    expect(await counts('petstore_rate_limit_refusals_total')).toEqual({ key_rate: 1, auth_failures: 1 });
  });
});
