import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '../config/app-config';
import { buildOpenApiDocument } from './openapi-document';

/** Swagger UI at /docs and the document at /docs/openapi.json, both readable without a key. */
export function setupDocs(app: NestFastifyApplication, config: AppConfig): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, config), {
    raw: ['json'],
    jsonDocumentUrl: 'docs/openapi.json',
    customSiteTitle: 'Pet Store API',
    swaggerOptions: { persistAuthorization: true, displayOperationId: true },
  });
}
