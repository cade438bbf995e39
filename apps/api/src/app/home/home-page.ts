import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PREFIX } from '@petstore/contract';
import type { RouteRules } from '../http/route-rules';
import { strictPageSecurityHeaders } from '../http/security-headers';
import { DOCS_PATH } from '../openapi/setup-docs';
import { STOREFRONT_PATH } from '../storefront/serve-storefront';

/** Where a person or a program that asks the service's root goes next, as paths on this origin. */
export function homeLinks(storefront: boolean) {
  return {
    api: API_PREFIX,
    docs: `/${DOCS_PATH}`,
    openapi: `/${DOCS_PATH}/openapi.json`,
    ...(storefront ? { storefront: `${STOREFRONT_PATH}/` } : {}),
  };
}

type HomeLinks = ReturnType<typeof homeLinks>;

/** RFC 8631's relations, for a client that looks for the API's description without reading the body. */
const linkHeader = (links: HomeLinks) => `<${links.openapi}>; rel="service-desc"; type="application/json", <${links.docs}>; rel="service-doc"`;

const page = (links: HomeLinks) =>
  [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Pet Store service</title></head><body><main>',
    '<h1>Pet Store service</h1>',
    `<p>The API answers under <code>${links.api}</code>; every operation needs an API key.</p>`,
    '<ul>',
    `<li><a href="${links.docs}">Swagger UI</a>: the API to read and try</li>`,
    `<li><a href="${links.openapi}">The OpenAPI document</a></li>`,
    ...('storefront' in links ? [`<li><a href="${links.storefront}">The storefront</a>: browse and add pets</li>`] : []),
    '</ul></main></body></html>',
    '',
  ].join('\n');

/** A browser asks for a page; anything else (curl, a program) gets the links as JSON. */
const wantsPage = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

/**
 * `GET /`, outside the API's prefix and without a key: where the API, Swagger UI and the storefront are, rather than a
 * bare 404 for whoever types the service's address. Register after useBearerAuth and useRouteRules, which read its rules.
 */
export function serveHome(fastify: FastifyInstance, { storefront }: { storefront: boolean }): void {
  const links = homeLinks(storefront);
  const html = page(links);
  const rules: RouteRules = { public: true, headers: { ...strictPageSecurityHeaders(), link: linkHeader(links), vary: 'accept' } };
  fastify.get('/', { config: rules }, (request, reply) =>
    wantsPage(request) ? reply.type('text/html; charset=utf-8').send(html) : reply.send({ links }),
  );
}
