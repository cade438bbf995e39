import { createApp } from '../app/configure-app';
import { loadConfig } from '../app/config/app-config';
import { buildOpenApiDocument } from '../app/openapi/openapi-document';

/**
 * The committed document, from the workspace root: the contract as reviewed and released (docs/releasing.md). It is
 * written with the configuration's defaults, whatever the environment says, so that every machine writes the same bytes.
 */
export const COMMITTED_OPENAPI_DOCUMENT = 'libs/contract/openapi/openapi.json';

/** The variables the document reads: its servers, the CORS header of every answer, and what it says of webhooks. */
const DOCUMENT_VARIABLES = ['PUBLIC_BASE_URL', 'STAGING_BASE_URL', 'CORS_ORIGINS', 'WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_TIMEOUT_MS'] as const;

export type DocumentEnvironment = Partial<Record<(typeof DOCUMENT_VARIABLES)[number], string>>;

/** Only the variables the document reads, taken from `env`. */
export const documentEnvironment = (env: NodeJS.ProcessEnv): DocumentEnvironment =>
  Object.fromEntries(DOCUMENT_VARIABLES.map((name) => [name, env[name]]));

/**
 * The OpenAPI document as JSON text, from the same decorators the service serves, for the given variables (none: the
 * defaults). It never listens and uses a throwaway in-memory database, so CI and SDK generation need no port, no key
 * and no data directory.
 */
export async function renderOpenApiDocument(env: DocumentEnvironment = {}): Promise<string> {
  const config = loadConfig({
    ...env,
    DATABASE_URL: 'sqlite::memory:',
    API_KEYS: 'openapi-export-placeholder-key',
    LOG_LEVEL: 'silent',
  });
  const app = await createApp(config);
  try {
    return `${JSON.stringify(buildOpenApiDocument(app, config), null, 2)}\n`;
  } finally {
    await app.close();
  }
}
