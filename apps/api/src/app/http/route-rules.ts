import { METHOD_METADATA } from '@nestjs/common/constants';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyInstance, FastifyRequest, onSendHookHandler, RouteOptions } from 'fastify';
import type { OperationId, Scope } from '@petstore/contract';
import { ApiException } from '../errors/api-exception';
import { unknownInput } from './contract-validation.pipe';
import { syncHook } from './sync-hook';

/** What a route declares about itself; Nest's Fastify adapter passes it to Fastify as the route's `config`. */
export interface RouteRules {
  /** Names the route's requests in metrics and traces. */
  operation?: OperationId;
  /** The scope the route's API key must hold; checked before the body is read. */
  scope?: Scope;
  /** The route answers without an API key (the health probes, the docs). */
  public?: boolean;
  /** Headers of every response, errors included (e.g. getPet's Deprecation and Sunset). */
  headers?: Readonly<Record<string, string>>;
  /** Only an `application/json` body is accepted, checked before it is read. */
  jsonBody?: boolean;
  /** Rather than an empty query class, so that the read by id, the hottest route, runs no validation pipe. */
  noQuery?: boolean;
  /** The only query parameters the route takes, for a route that reads them itself: any other is a 400. */
  query?: readonly string[];
}

/**
 * Merged into the route's config (Nest's `@RouteConfig` replaces it), so that these and `@Public()` never clash.
 * @example @RouteRules({ jsonBody: true, noQuery: true })
 */
export function RouteRules(rules: RouteRules): ClassDecorator & MethodDecorator {
  return (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    // Class decorators run after the handlers' own, so a controller's rules reach every handler and merge with theirs.
    const handlers: unknown[] = descriptor ? [descriptor.value] : routeHandlers(target as { prototype: object });
    for (const handler of handlers) {
      const declared = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler as object) as RouteRules | undefined;
      Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...declared, ...rules }, handler as object);
    }
  };
}

const routeHandlers = ({ prototype }: { prototype: object }): unknown[] =>
  Object.getOwnPropertyNames(prototype)
    .map((name) => Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown)
    .filter((value) => typeof value === 'function' && Reflect.hasMetadata(METHOD_METADATA, value));

/**
 * For routes a plugin registers (Swagger UI's, the CORS preflight). Call before those routes are registered and before
 * useBearerAuth and useRouteRules: Fastify runs onRoute hooks in that order.
 */
export function declareRouteRules(fastify: FastifyInstance, matches: (route: RouteOptions) => boolean, rules: RouteRules): void {
  fastify.addHook('onRoute', (route) => {
    if (matches(route)) route.config = { ...route.config, ...rules };
  });
}

/**
 * The media type is checked before the body; the query after it, so an unreadable body is reported first; the headers
 * are set in onSend, which errors pass through too. Call before routes are registered.
 */
export function useRouteRules(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const { headers, jsonBody, noQuery, query } = (route.config ?? {}) as RouteRules;
    if (headers) route.onSend = [...asList(route.onSend), withHeaders(headers)];
    if (jsonBody) route.onRequest = [...asList(route.onRequest), syncHook(refuseNonJsonBody)];
    if (noQuery || query) route.preValidation = [...asList(route.preValidation), syncHook(refuseQueryBut(query ?? []))];
  });
}

export const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

function withHeaders(headers: Readonly<Record<string, string>>): onSendHookHandler {
  return (_request, reply, payload, done) => {
    reply.headers(headers);
    done(null, payload);
  };
}

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

export const unsupportedMediaType = () => new ApiException('unsupported_media_type', 'Content-Type must be application/json.');

function refuseNonJsonBody(request: FastifyRequest): void {
  if (!JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) {
    throw unsupportedMediaType();
  }
}

const refuseQueryBut = (known: readonly string[]) => (request: FastifyRequest): void => {
  const unknown = Object.keys(request.query as object).filter((name) => !known.includes(name));
  if (unknown.length > 0) throw unknownInput('query', unknown);
};
