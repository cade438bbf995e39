import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { API_PREFIX } from '@petstore/contract';
import { ApiException } from '../errors/api.exception';
import type { ApiKeysService } from './api-keys.service';
import { bearerToken } from './bearer-token';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request's bearer key has been accepted. */
    authenticated?: boolean;
  }
}

export const unauthorized = () =>
  new ApiException('unauthorized', 'A valid API key is required: send it as "Authorization: Bearer <key>".', {
    'www-authenticate': 'Bearer',
  });

/**
 * Authenticates every `/v1` request at its start, before its body is read: an unauthenticated request is
 * answered 401 whatever its body, so nobody learns anything about validation or limits without a key.
 */
export function bearerAuthHook(keys: ApiKeysService): onRequestHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const route = request.routeOptions.url;
    if (route === undefined || !(route === API_PREFIX || route.startsWith(`${API_PREFIX}/`))) return;
    const token = bearerToken(request.raw.rawHeaders);
    if (token === undefined || !keys.isValid(token)) throw unauthorized();
    request.authenticated = true;
  };
}
