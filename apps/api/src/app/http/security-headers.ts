import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/app-config';

/** The headers helmet sets, computed once: without a nonce they never vary, and helmet per request cost CPU. */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

/** Swagger UI's pages: their own scripts and styles, and "Try it out" calling the document's servers. */
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

/** The storefront's pages load only their own files, and call only the service that served them. */
export function strictPageSecurityHeaders(): Record<string, string> {
  return helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
  });
}

function documentedOrigins(config: AppConfig): string[] {
  return [...new Set([config.publicBaseUrl, config.stagingBaseUrl].flatMap((url) => (url ? [new URL(url).origin] : [])))];
}

/**
 * An API answer's headers, after OWASP's REST Security Cheat Sheet. helmet's other headers steer documents and go on
 * our pages only: on every answer their bytes cost throughput (docs/security.md).
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
 * Set at request start (our pages' route rules override them). Add it before the other request hooks: one that throws
 * (a 401) skips those after it.
 */
export function useSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(API_SECURITY_HEADERS);
    done();
  });
}
