import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyCorsOptions } from '@fastify/cors';
import type { AppConfig } from '../config/app-config';
import { declareRouteRules } from './route-rules';

/** Request headers a browser may send cross-origin: the key, the body's type, and the ones the API reads. */
const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'x-request-id'] as const;

/** Response headers a browser script may read cross-origin: paging, creation, tracing, limits and deprecation. */
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
 * For the answers written before any request hook runs (requests that Node or the router cannot parse), which
 * helmet never sees: their JSON body must still not be sniffed as another type, nor cached.
 */
export const EARLY_RESPONSE_HEADERS = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' } as const;

/**
 * The headers helmet sets, computed once: with no per-request nonce they are the same for every response, and
 * running helmet's middleware on each request cost a visible share of a request's CPU (docs/performance.md).
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * The headers of a browser page of ours (Swagger UI, its files and the document it loads): its own scripts and styles
 * may load, and "Try it out" may call the servers the OpenAPI document names. Declared on those routes
 * (`headers` of their route rules), over the API's.
 */
export function pageSecurityHeaders(config: AppConfig): Record<string, string> {
  const servers = [config.publicBaseUrl, config.stagingBaseUrl].flatMap((url) => (url ? [new URL(url).origin] : []));
  return helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        connectSrc: ["'self'", ...new Set(servers)],
        // The service itself speaks plain HTTP (TLS, if any, ends in front of it): on a non-local http:// address the
        // directive would send /docs' own scripts and styles to an https:// port that does not answer.
        upgradeInsecureRequests: null,
      },
    },
  });
}

/**
 * Security headers on every response (helmet) and, when `CORS_ORIGINS` lists origins, CORS for exactly those.
 * Call before adding the other request hooks: Fastify runs them in order and one that throws (a 401) skips the rest;
 * and before useBearerAuth, which reads what this declares about the CORS route.
 * Nest runs the CORS hook ahead of all of them, so a preflight is answered before authentication (as a bodiless 204
 * that helmet's hook does not reach) and every other response from an allowed origin carries Access-Control-*.
 */
export async function useSecurity(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  // The API's responses are JSON, which loads nothing and is never to be framed: the policy OWASP recommends for APIs.
  // It is also some 300 bytes shorter than the page's, on every response; header bytes cost measurable throughput.
  const apiHeaders = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    frameguard: { action: 'deny' },
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(apiHeaders);
    done();
  });
  if (config.corsOrigins.length === 0) return;

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
