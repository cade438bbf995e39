import { trace } from '@opentelemetry/api';
import { ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteRules } from '../../http/route-rules';
import { syncHook } from '../../http/sync-hook';
import { routeTemplate } from '../../http/route-template';

/** What a request's span is called: the contract's operation, else `METHOD route` as the semantic conventions say. */
export const spanName = (method: string, route: string, operation?: string): string => operation ?? `${method} ${route}`;

/**
 * Names each request's span (started by instrumentation-http, which knows no routes) after its operation and sets
 * `http.route` to the route's template. A request that matched no route keeps the plain method as its name. The
 * templates are worked out once per route, as routes are registered: call before they are.
 */
export function useRequestSpans(fastify: FastifyInstance): void {
  const templates = new Map<string, string>();
  fastify.addHook('onRoute', ({ url }) => {
    templates.set(url, routeTemplate(url));
  });
  // First of the request hooks, so that a request refused by any of them still has its name.
  fastify.addHook('onRequest', syncHook(nameRequestSpan));

  function nameRequestSpan(request: FastifyRequest): void {
    const span = trace.getActiveSpan();
    const route = request.routeOptions.url;
    const template = route === undefined ? undefined : templates.get(route);
    if (!span || template === undefined) return;
    span.setAttribute(ATTR_HTTP_ROUTE, template);
    span.updateName(spanName(request.method, template, (request.routeOptions.config as RouteRules).operation));
  }
}
