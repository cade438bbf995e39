import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { startPgBouncer } from './pgbouncer';

const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? `postgres://${userInfo().username}@127.0.0.1:5432/test`;

/** One PgBouncer for the whole leg; its address reaches the test files through the environment. */
export default async function startPgBouncerForTheSuite(): Promise<void> {
  const server = new URL(POSTGRES_ADMIN_URL);
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const pgbouncer = await startPgBouncer({ host: server.hostname, port: Number(server.port || 5432) }, port);
  process.env.PETSTORE_TEST_PGBOUNCER_ORIGIN = pgbouncer.origin;
  (globalThis as { petstorePgBouncer?: typeof pgbouncer }).petstorePgBouncer = pgbouncer;
}
