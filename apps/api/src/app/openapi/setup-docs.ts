import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { declareRouteRules } from '../http/route-rules';
import { pageSecurityHeaders } from '../http/security-headers';
import { buildOpenApiDocument } from './openapi-document';

/** Where Swagger UI is served (its files and the OpenAPI document below it), without the leading slash. */
export const DOCS_PATH = 'docs';

const DOCS_ROUTE = new RegExp(`^/${DOCS_PATH}(?:/|$)`);

/**
 * Declares the rules of every route of Swagger UI (the page, its files, the OpenAPI document): public, with a page's
 * security headers. SwaggerModule registers them itself, with no config of ours, so they are told apart by their
 * address, once each, as they are registered. Call before useBearerAuth; setupDocs registers the routes later.
 */
export function declareDocsRoutes(fastify: FastifyInstance, config: AppConfig): void {
  declareRouteRules(fastify, ({ url }: RouteOptions) => DOCS_ROUTE.test(url), { public: true, headers: pageSecurityHeaders(config) });
}

/** Swagger UI at /docs and the document at /docs/openapi.json, both readable without a key (see declareDocsRoutes). */
export function setupDocs(app: NestFastifyApplication, config: AppConfig): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app, config), {
    raw: ['json'],
    jsonDocumentUrl: `${DOCS_PATH}/openapi.json`,
    customSiteTitle: 'Pet Store API',
    swaggerOptions: { persistAuthorization: true, displayOperationId: true },
  });
}
