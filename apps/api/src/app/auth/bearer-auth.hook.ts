import type { Scope } from '@petstore/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ApiException } from '../errors/api-exception';
import { asList, type RouteRules } from '../http/route-rules';
import { syncHook } from '../http/sync-hook';
import type { RateLimits } from '../rate-limit/rate-limits';
import type { Metrics } from '../metrics/metrics';
import type { ApiKeysService } from './api-keys.service';
import { bearerToken } from './bearer-token';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who holds the accepted key (`env:…` or `key:<id>`); set once authentication succeeded. */
    apiKeyHolder?: string;
    /** What the accepted key may do; set with apiKeyHolder. */
    apiKeyScopes?: readonly Scope[];
  }
}

/** `headers`: the RateLimit fields of the address's failed-authentication budget, when that limit is on. */
export const unauthorized = (headers: Record<string, string> = {}) =>
  new ApiException('unauthorized', 'A valid API key is required: send it as "Authorization: Bearer <key>".', {
    ...headers,
    'www-authenticate': 'Bearer',
  });

/** RFC 6750, section 3.1: the key is valid but may not do this; `scope` names what it lacks. */
export const insufficientScope = (scope: Scope) =>
  new ApiException('insufficient_scope', `This API key does not hold the "${scope}" scope that this operation needs.`, {
    'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
  });

/**
 * Gives every route not declared public bearer authentication, then the per-key rate limit (so a request refused for
 * its scope counts), then the route's scope check, as its first request hooks: before the media type and the body, so
 * a key without the scope learns nothing of validation. Decided per route as it is registered: call before routes are
 * registered and after plugins' route rules are declared.
 */
export function useBearerAuth(fastify: FastifyInstance, keys: ApiKeysService, limits: RateLimits, metrics: Metrics): void {
  const authenticate = bearerAuthHook(keys, limits, metrics);
  const hooks = limits.perKeyEnabled ? [authenticate, rateLimitHook(limits, metrics)] : [authenticate];
  fastify.addHook('onRoute', (route) => {
    const { public: isPublic, scope } = (route.config ?? {}) as RouteRules;
    if (isPublic) return;
    const scoped = scope === undefined ? hooks : [...hooks, scopeHook(scope, metrics)];
    route.onRequest = [...scoped, ...asList(route.onRequest)];
  });
}

/**
 * Authenticates a request at its start, before its body is read: an unauthenticated request is answered 401 whatever
 * its body, so nobody learns anything about validation or limits without a key.
 * An address that keeps failing is answered 429 for a while, so that keys cannot be guessed quickly; each 401 tells,
 * in RateLimit fields, how many failures it has left.
 */
export function bearerAuthHook(keys: ApiKeysService, limits: RateLimits, metrics: Metrics): onRequestHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    try {
      await limits.assertAddressMayAuthenticate(request.ip);
    } catch (error) {
      metrics.rateLimitRefusals.inc({ reason: 'auth_failures' });
      throw error;
    }
    const token = bearerToken(request.raw.rawHeaders);
    const checked = token === undefined ? undefined : await keys.check(token);
    if (checked === undefined || 'refused' in checked) {
      metrics.authFailures.inc({ reason: checked?.refused ?? (request.headers.authorization === undefined ? 'missing' : 'malformed') });
      throw unauthorized(await limits.recordAuthenticationFailure(request.ip));
    }
    request.apiKeyHolder = checked.holder;
    request.apiKeyScopes = checked.scopes;
  };
}

/** Refuses, 403, an authenticated request whose key does not hold `scope`. */
export function scopeHook(scope: Scope, metrics: Metrics): onRequestHookHandler {
  return syncHook((request: FastifyRequest) => {
    if (request.apiKeyScopes?.includes(scope)) return;
    metrics.authFailures.inc({ reason: 'insufficient_scope' });
    throw insufficientScope(scope);
  });
}

/**
 * Spends one request of the key's budget; the RateLimit headers go on every authenticated response. It runs only
 * after bearerAuthHook, which names the holder or refuses the request.
 */
export function rateLimitHook(limits: RateLimits, metrics: Metrics): onRequestHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      reply.headers(await limits.consume(request.apiKeyHolder as string));
    } catch (error) {
      metrics.rateLimitRefusals.inc({ reason: 'key_rate' });
      throw error;
    }
  };
}
