import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '../config/app-config';
import { buildOpenApiDocument } from './openapi-document';

/** Where Swagger UI is served (its files and the OpenAPI document below it), without the leading slash. */
export const DOCS_PATH = 'docs';

/** Swagger UI at /docs and the document at /docs/openapi.json, both readable without a key. */
export function setupDocs(app: NestFastifyApplication, config: AppConfig): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app, config), {
    raw: ['json'],
    jsonDocumentUrl: `${DOCS_PATH}/openapi.json`,
    customSiteTitle: 'Pet Store API',
    swaggerOptions: { persistAuthorization: true, displayOperationId: true },
  });
}
