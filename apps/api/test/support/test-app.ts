import { Writable } from 'node:stream';
import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Pet } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app/app.module';
import { createApp } from '../../src/app/configure-app';
import { loadConfig } from '../../src/app/config/app-config';
import { createLogger } from '../../src/app/logging/create-logger';
import { petSelectList, type PetRow, toPet } from '../../src/app/pets/sql/pet-row';
import { createTestDatabase, type TestDatabase } from './test-database';

/** The key every test authenticates with; it must never show up in a response or a log line. */
export const TEST_KEY = 'pk_test_canary_5f0c1e9a7d3b4c2e8f6a';
export const AUTH = { authorization: `Bearer ${TEST_KEY}` } as const;
export const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' } as const;

export interface TestApp {
  app: NestFastifyApplication;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  database: TestDatabase;
  /** Every log line written so far, parsed. */
  logs: () => Array<Record<string, unknown>>;
  /** To search for secrets. */
  rawLogs: () => string;
  /** The stored rows, ordered by id: what was stored, not what was answered. */
  storedPets: () => Promise<Pet[]>;
  /** Stops the app, and drops its database unless the caller provided it. */
  close: () => Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Use this database (e.g. to restart on the same data); the caller drops it. */
  database?: TestDatabase;
  /**
   * Port to listen on, when the address must be known before boot (e.g. for PUBLIC_BASE_URL).
   * @default 0 (an ephemeral port)
   */
  port?: number;
  /** Modules built beside the app's own, e.g. routes a test adds. */
  modules?: NonNullable<ModuleMetadata['imports']>;
}

/** The root module when a test adds modules: the app's own and theirs. */
@Module({})
class TestRootModule {}

/** Boots the real app through createApp, as main.ts does, on a database of its own. */
export async function startApp({ env = {}, database, port: listenPort = 0, modules = [] }: StartOptions = {}): Promise<TestApp> {
  const db = database ?? (await createTestDatabase());
  // Rate limits are off unless a test turns them on: suites send requests faster than any limit allows.
  const config = loadConfig({
    API_KEYS: TEST_KEY,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'info',
    NODE_ENV: 'test',
    RATE_LIMIT_RPS: '0',
    RATE_LIMIT_AUTH_FAILURES: '0',
    // Off unless a test asks for it: test files run side by side, and 9464 is one port.
    METRICS_PORT: '0',
    ...env,
  });
  let output = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  const root: DynamicModule | undefined =
    modules.length === 0 ? undefined : { module: TestRootModule, imports: [AppModule.forRoot(config, logger), ...modules] };
  const app = await createApp(config, logger, root);
  await app.listen({ port: listenPort, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    origin: `http://127.0.0.1:${port}`,
    database: db,
    logs: () =>
      output
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    rawLogs: () => output,
    storedPets: async () => ((await app.get(DataSource).query(`SELECT ${petSelectList()} FROM pets ORDER BY id`)) as PetRow[]).map(toPet),
    close: async () => {
      await app.close();
      if (!database) await db.drop();
    },
  };
}

