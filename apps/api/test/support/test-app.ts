import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app/configure-app';
import { loadConfig } from '../../src/app/config/app-config';
import { createLogger } from '../../src/app/logging/create-logger';

/** The key every test authenticates with; it must never show up in a response or a log line. */
export const TEST_KEY = 'pk_test_canary_5f0c1e9a7d3b4c2e8f6a';
export const AUTH = { authorization: `Bearer ${TEST_KEY}` } as const;
export const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' } as const;

export interface TestApp {
  app: NestFastifyApplication;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** Path of the temporary SQLite file. */
  databasePath: string;
  /** Every log line written so far, parsed. */
  logs: () => Array<Record<string, unknown>>;
  /** Raw log output, to search for secrets. */
  rawLogs: () => string;
  close: () => Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse a database file, e.g. to restart on the same data. */
  databasePath?: string;
  /**
   * Port to listen on, when the address must be known before boot (e.g. to put it in PUBLIC_BASE_URL).
   * @default 0 (an ephemeral port)
   */
  port?: number;
}

/** Boots the real app through createApp (the path main.ts takes) on a port (ephemeral by default) and a temporary SQLite file. */
export async function startApp({ env = {}, databasePath, port: listenPort = 0 }: StartOptions = {}): Promise<TestApp> {
  const dir = databasePath ? undefined : mkdtempSync(join(tmpdir(), 'petstore-test-'));
  const path = databasePath ?? join(dir as string, 'petstore.sqlite');
  const config = loadConfig({
    API_KEYS: TEST_KEY,
    DATABASE_URL: `sqlite:${path}`,
    LOG_LEVEL: 'info',
    NODE_ENV: 'test',
    ...env,
  });
  let output = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  const app = await createApp(config, createLogger(config.logLevel, sink));
  await app.listen({ port: listenPort, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    origin: `http://127.0.0.1:${port}`,
    databasePath: path,
    logs: () =>
      output
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    rawLogs: () => output,
    close: async () => {
      await app.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A port that was free a moment ago, for when an address must be known before the app listens. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}
