import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiException, validationFailed } from '../errors/api.exception';
import { describeUnknown } from './contract-validation.pipe';

/** What an operation declares about itself with `@RouteConfig(...)`, applied by the request hooks below. */
export interface RouteRules {
  /** Headers of every response of the operation, errors included (e.g. getPet's Deprecation and Sunset). */
  headers?: Readonly<Record<string, string>>;
  /** The operation takes an `application/json` body: anything else is refused before the body is read. */
  jsonBody?: boolean;
  /**
   * The operation takes no query parameters: any is refused, naming it. A route rule rather than an empty query
   * class, so that the read by id, the hottest route, runs no validation pipe for a query that must be empty.
   */
  noQuery?: boolean;
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

/**
 * 400 naming the query parameters an operation does not take. Runs once the body is read, so that a body that cannot
 * be read (too large, not JSON) is reported first; it is then checked alongside the query, as by the validation pipe.
 */
export function noQueryHook(request: FastifyRequest): void {
  if (!(request.routeOptions.config as RouteRules).noQuery) return;
  const unknown = Object.keys(request.query as object);
  if (unknown.length > 0) throw validationFailed(describeUnknown('query', unknown));
}
