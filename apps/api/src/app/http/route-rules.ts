import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiException } from '../errors/api.exception';

/** What an operation declares about itself with `@RouteConfig(...)`, applied at request start. */
export interface RouteRules {
  /** Headers of every response of the operation, errors included (e.g. getPet's Deprecation and Sunset). */
  headers?: Readonly<Record<string, string>>;
  /** The operation takes an `application/json` body: anything else is refused before the body is read. */
  jsonBody?: boolean;
}

/** Sets the operation's own headers; runs before authentication so that a 401 carries them too. */
export function routeHeadersHook(request: FastifyRequest, reply: FastifyReply): void {
  const { headers } = request.routeOptions.config as RouteRules;
  if (headers) reply.headers(headers);
}

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/** 415 for a body that is not JSON; runs after authentication, so strangers learn nothing from it. */
export function jsonBodyHook(request: FastifyRequest): void {
  const { jsonBody } = request.routeOptions.config as RouteRules;
  if (jsonBody && !JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) {
    throw new ApiException('unsupported_media_type', 'Content-Type must be application/json.');
  }
}
