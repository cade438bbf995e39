import { START_ENV, START_NODE_OPTIONS, type StartedService, startService as startBuiltService } from '@petstore/testing';

export const API_KEY = 'crash-key-0123456789abcdef';

/**
 * The built service as `npm start` runs it in production, on the database, with `env` besides; its output is appended
 * to `logFile`.
 */
export function startService(databaseUrl: string, logFile: string, env: Record<string, string> = {}): Promise<StartedService> {
  return startBuiltService({
    env: { ...START_ENV, NODE_ENV: 'production', NODE_OPTIONS: START_NODE_OPTIONS, API_KEYS: API_KEY, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...env },
    logFile,
  });
}
