import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import { ApiException, validationFailed } from '../errors/api.exception';
import { describeUnknown } from './contract-validation.pipe';
import { syncHook } from './sync-hook';

/** What an operation declares about itself with `@RouteConfig(...)`. */
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

/**
 * Gives each route the checks and headers it declares, so that no other request pays for them. A route's onRequest
 * hooks run after the global ones, so the media type (415) is checked after authentication and before the body is
 * read; the query is checked once the body is read (preValidation), so that a body that cannot be read (too large,
 * not JSON) is reported first, and then alongside the body, as the validation pipe does. The headers are set in the
 * route's onSend, which every answer of the route passes through, including the errors of the global request hooks
 * (401, 429, 414/431). Call before routes are registered.
 */
export function useRouteRules(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const { headers, jsonBody, noQuery } = (route.config ?? {}) as RouteRules;
    if (headers) route.onSend = [...asList(route.onSend), withHeaders(headers)];
    if (jsonBody) route.onRequest = [...asList(route.onRequest), syncHook(refuseNonJsonBody)];
    if (noQuery) route.preValidation = [...asList(route.preValidation), syncHook(refuseQuery)];
  });
}

const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

function withHeaders(headers: Readonly<Record<string, string>>): onSendHookHandler {
  return (_request, reply, payload, done) => {
    reply.headers(headers);
    done(null, payload);
  };
}

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

function refuseNonJsonBody(request: FastifyRequest): void {
  if (!JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) {
    throw new ApiException('unsupported_media_type', 'Content-Type must be application/json.');
  }
}

function refuseQuery(request: FastifyRequest): void {
  const unknown = Object.keys(request.query as object);
  if (unknown.length > 0) throw validationFailed(describeUnknown('query', unknown));
}
