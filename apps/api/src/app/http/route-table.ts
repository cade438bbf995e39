import FindMyWay from 'find-my-way';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PREFIX } from '@petstore/contract';
import { ApiException } from '../errors/api-exception';

/** Every route the app serves, so that an unmatched request can tell "no such path" from "wrong method". */
export class RouteTable {
  private readonly router = FindMyWay({ maxParamLength: 1024 });
  private readonly served = new Set<string>();

  add(method: string, url: string): void {
    this.served.add(method);
    this.router.on(method as FindMyWay.HTTPMethod, url, () => undefined);
  }

  /** Every method some route serves, sorted. */
  methods(): string[] {
    return [...this.served].sort();
  }

  allowedMethods(path: string): string[] {
    return [...this.served].filter((method) => this.router.find(method as FindMyWay.HTTPMethod, path)).sort();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteTable;
  }
}

/** Records routes as they are registered; call before the app initialises its routes. */
export function recordRoutes(fastify: FastifyInstance): void {
  const table = new RouteTable();
  fastify.decorate('routeTable', table);
  fastify.addHook('onRoute', ({ method, url }) => {
    // CORS answers preflights through a catch-all OPTIONS route, which says nothing about what a path allows.
    if (url === '*') return;
    for (const m of Array.isArray(method) ? method : [method]) table.add(m, url);
  });
}

/** 405 with `Allow` when the path exists under another method, else 404. */
export function routeNotFound(request: FastifyRequest): ApiException {
  const path = request.url.split('?', 1)[0];
  const shown = path.length > 100 ? `${path.slice(0, 100)}…` : path;
  const allowed = request.server.routeTable.allowedMethods(path);
  // Our table can be more lenient than Fastify's router (an empty path parameter): a match on the very method
  // that Fastify found nothing for is a missing resource, not a wrong method.
  if (allowed.length > 0 && !allowed.includes(request.method)) {
    return new ApiException('method_not_allowed', `${request.method} is not allowed on ${shown}; use ${allowed.join(', ')}.`, {
      allow: allowed.join(', '),
    });
  }
  return new ApiException('not_found', `No resource at ${request.method} ${shown}; operations live under ${API_PREFIX}/pets.`);
}
