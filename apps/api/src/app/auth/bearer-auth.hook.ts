import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { API_PREFIX } from '@petstore/contract';
import { ApiException } from '../errors/api.exception';
import type { RateLimits } from '../rate-limit/rate-limits';
import type { ApiKeysService } from './api-keys.service';
import { bearerToken } from './bearer-token';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who holds the accepted key (`env:…` or `key:<id>`); set once authentication succeeded. */
    apiKeyHolder?: string;
  }
}

/** `headers`: the RateLimit fields of the address's failed-authentication budget, when that limit is on. */
export const unauthorized = (headers: Record<string, string> = {}) =>
  new ApiException('unauthorized', 'A valid API key is required: send it as "Authorization: Bearer <key>".', {
    ...headers,
    'www-authenticate': 'Bearer',
  });

const isApiRoute = (route: string | undefined) => route !== undefined && (route === API_PREFIX || route.startsWith(`${API_PREFIX}/`));

/**
 * Authenticates every `/v1` request at its start, before its body is read: an unauthenticated request is
 * answered 401 whatever its body, so nobody learns anything about validation or limits without a key.
 * An address that keeps failing is answered 429 for a while, so that keys cannot be guessed quickly; each 401 tells,
 * in RateLimit fields, how many failures it has left.
 */
export function bearerAuthHook(keys: ApiKeysService, limits: RateLimits): onRequestHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!isApiRoute(request.routeOptions.url)) return;
    await limits.assertAddressMayAuthenticate(request.ip);
    const token = bearerToken(request.raw.rawHeaders);
    const holder = token === undefined ? undefined : await keys.authenticate(token);
    if (holder === undefined) throw unauthorized(await limits.recordAuthenticationFailure(request.ip));
    request.apiKeyHolder = holder;
  };
}

/** Spends one request of the key's budget; the RateLimit headers go on every authenticated response. */
export function rateLimitHook(limits: RateLimits): onRequestHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.apiKeyHolder !== undefined) reply.headers(await limits.consume(request.apiKeyHolder));
  };
}
