import { userInfo } from 'node:os';
import { freePort } from '../free-port';
import { startPgBouncer } from '../pgbouncer';

const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? `postgres://${userInfo().username}@127.0.0.1:5432/test`;

/**
 * Jest's globalSetup of the api's PgBouncer leg (apps/api/jest.pgbouncer.config.js): one PgBouncer for the whole
 * leg; its address reaches the test files through the environment.
 */
export default async function startPgBouncerForTheSuite(): Promise<void> {
  const server = new URL(POSTGRES_ADMIN_URL);
  const pgbouncer = await startPgBouncer({ host: server.hostname, port: Number(server.port || 5432) }, await freePort());
  process.env.PETSTORE_TEST_PGBOUNCER_ORIGIN = pgbouncer.origin;
  (globalThis as { petstorePgBouncer?: typeof pgbouncer }).petstorePgBouncer = pgbouncer;
}
