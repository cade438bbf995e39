import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/app-config';

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
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        connectSrc: ["'self'", ...documentedOrigins(config)],
        // The service itself speaks plain HTTP (TLS, if any, ends in front of it): on a non-local http:// address the
        // directive would send /docs' own scripts and styles to an https:// port that does not answer.
        upgradeInsecureRequests: null,
      },
    },
  });
  // Swagger UI's files may be kept and revalidated; the API's no-store would fetch them whole on every visit.
  return { ...headers, 'cache-control': 'no-cache' };
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
 * What an API's answer needs, after the OWASP REST Security Cheat Sheet's "Security headers": JSON loads nothing and is
 * never to be framed (`default-src 'none'`, `frame-ancestors 'none'`, `X-Frame-Options` for browsers before CSP),
 * must not be sniffed as another type, stored by a cache (it answers a key) or read by another origin's page without
 * CORS (`Cross-Origin-Resource-Policy`, which scanners ask of every response), and HTTPS stays HTTPS. helmet's other
 * headers steer a document (its referrer, DNS prefetching, opener, origin-keyed agent cluster, IE's download prompt,
 * Flash's cross-domain policies, the retired XSS auditor) and do nothing on JSON: they go on our pages only, while
 * header bytes on every answer cost throughput (docs/performance.md, docs/security.md). Also written on the answers
 * made before any request hook runs (requests that Node or the router cannot parse).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

/**
 * Security headers on every response, set at request start: the API's, which our pages' routes add to and override
 * (`headers` of their route rules). Call before adding the other request hooks: Fastify runs them in order, and one
 * that throws (a 401) skips the rest.
 */
export function useSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(API_SECURITY_HEADERS);
    done();
  });
}
