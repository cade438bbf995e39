import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createApp } from '../app/configure-app';
import { loadConfig } from '../app/config/app-config';
import { buildOpenApiDocument } from '../app/openapi/openapi-document';

// Builds the document from the same decorators the service serves, but never listens and uses a throwaway in-memory
// database, so CI and SDK generation need no port, no key and no data directory.
async function exportOpenApi(outFile = 'dist/openapi.json'): Promise<void> {
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    API_KEYS: 'openapi-export-placeholder-key',
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL,
    STAGING_BASE_URL: process.env.STAGING_BASE_URL,
    CORS_ORIGINS: process.env.CORS_ORIGINS,
    // The webhooks' retries and timeout, which the document describes.
    WEBHOOK_RETRY_SCHEDULE: process.env.WEBHOOK_RETRY_SCHEDULE,
    WEBHOOK_TIMEOUT_MS: process.env.WEBHOOK_TIMEOUT_MS,
  });
  const app = await createApp(config);
  try {
    const path = resolve(outFile);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(buildOpenApiDocument(app, config), null, 2)}\n`);
    process.stdout.write(`OpenAPI document written to ${path}\n`);
  } finally {
    await app.close();
  }
}

exportOpenApi(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
