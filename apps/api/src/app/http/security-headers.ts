import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/app-config';

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
  return helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        connectSrc: ["'self'", ...documentedOrigins(config)],
        // The service itself speaks plain HTTP (TLS, if any, ends in front of it): on a non-local http:// address the
        // directive would send /docs' own scripts and styles to an https:// port that does not answer.
        upgradeInsecureRequests: null,
      },
    },
  });
}

/**
 * The headers of a browser page of ours built to load only its own files (the storefront): no inline script or style,
 * no eval, nothing framed or framing it. It may call this origin and the servers the OpenAPI document names, the API
 * addresses a person may type in. Declared on its routes (`headers` of their route rules), over the API's.
 */
export function strictPageSecurityHeaders(config: AppConfig): Record<string, string> {
  return helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...documentedOrigins(config)],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
  });
}

/** The origins of the servers the OpenAPI document names, each once. */
function documentedOrigins(config: AppConfig): string[] {
  return [...new Set([config.publicBaseUrl, config.stagingBaseUrl].flatMap((url) => (url ? [new URL(url).origin] : [])))];
}

/**
 * Security headers on every response (helmet), set at request start. Call before adding the other request hooks:
 * Fastify runs them in order, and one that throws (a 401) skips the rest.
 */
export function useSecurityHeaders(fastify: FastifyInstance): void {
  // The API's responses are JSON, which loads nothing and is never to be framed: the policy OWASP recommends for APIs.
  // It is also much shorter than the page's, on every response, and header bytes cost throughput (docs/performance.md).
  const apiHeaders = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    frameguard: { action: 'deny' },
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(apiHeaders);
    done();
  });
}
