import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyCorsOptions } from '@fastify/cors';
import type { AppConfig } from '../config/app-config';
import { declareRouteRules } from './route-rules';

/** Request headers a browser may send cross-origin (Last-Event-ID: a page resuming the event stream by header). */
const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'x-request-id', 'last-event-id'] as const;

/** Response headers a browser script may read cross-origin. */
const CORS_EXPOSED_HEADERS = [
  'link',
  'location',
  'x-request-id',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'deprecation',
  'sunset',
] as const;

/**
 * Call before useBearerAuth, which reads what this declares about the CORS route. Nest runs the CORS hook ahead of all
 * the request hooks, so a preflight is answered before authentication (and before the security headers' hook).
 */
export function useCors(app: NestFastifyApplication, config: AppConfig): void {
  if (config.corsOrigins.length === 0) return;
  const fastify = app.getHttpAdapter().getInstance();

  // The catch-all OPTIONS route that CORS adds only sends other OPTIONS requests on to the usual 404/405: no key,
  // as for any request that matches no route of ours.
  declareRouteRules(fastify, (route) => route.url === '*' && route.method === 'OPTIONS', { public: true });
  const allowed = new Set(config.corsOrigins);
  let options: FastifyCorsOptions | undefined;
  app.enableCors({
    delegator: (request, callback) => {
      // Made at the first request, when every route is registered: a preflight allows the methods the API serves.
      options ??= {
        methods: fastify.routeTable.methods(),
        allowedHeaders: [...CORS_ALLOWED_HEADERS],
        exposedHeaders: [...CORS_EXPOSED_HEADERS],
        // The key travels in Authorization, not in a cookie.
        credentials: false,
        maxAge: 600,
        // An OPTIONS from an allowed origin without Access-Control-Request-Method would otherwise get a text/plain 400.
        strictPreflight: false,
      };
      // Any other origin (or none) gets no CORS at all, so a stray OPTIONS is the usual 404/405 Error, not a preflight.
      const origin = request.headers.origin;
      callback(null, { ...options, origin: origin !== undefined && allowed.has(origin) ? origin : false });
    },
  });
}

/** `Access-Control-Allow-Origin` as useCors sends it, for the OpenAPI document. */
export const allowOriginHeader = (origins: readonly string[]) => ({
  description: 'The calling page\'s `Origin`, when it is one of the configured `CORS_ORIGINS`; absent otherwise.',
  schema: { type: 'string', enum: [...origins], example: origins[0] },
});
