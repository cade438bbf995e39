import { setTimeout as sleep } from 'node:timers/promises';
import { PetstoreClient } from '@petstore/client';
import { blackHole, freePort, iptablesUsable, startRedis } from '@petstore/testing';
import { checkStored, withCluster } from './support/cluster';
import { haproxyInstalled } from './support/haproxy';
import { startClientLoad } from './support/load';
import { createPostgres, postgresBinaries } from './support/private-servers';
import { TEST_KEY } from './support/test-key';

/** Cuts of PostgreSQL, each this long, this far apart: the answers lost in them are what the harness counts. */
const POSTGRES_CUTS = 3;
const POSTGRES_CUT_MS = 4_000;

// Packets dropped, no reset: Redis, PostgreSQL (again and again) and one instance go silent under a caller's steady
// load through HAProxy. A caller that retries as @petstore/client does sees no failure; nothing acknowledged is lost,
// nothing is stored twice. Redis and PostgreSQL are the test's own, so that their ports are black-holed for it alone.
describe('Partitions under load, behind HAProxy', () => {
  it('rides out a silent Redis, PostgreSQL and instance with no failed operation, nothing lost and nothing doubled', async () => {
    if (!haproxyInstalled() || !postgresBinaries() || !iptablesUsable()) {
      if (process.env.CI === 'true') throw new Error('haproxy, PostgreSQL server binaries and iptables as root are needed: .ci/run installs them');
      process.stderr.write('SKIPPED the partition tests: haproxy, PostgreSQL server binaries, or iptables as root are missing\n');
      return;
    }
    const redisPort = await freePort();
    const redis = await startRedis(redisPort);
    const postgresPort = await freePort();
    const postgres = await createPostgres(postgresPort);
    const heals: Array<() => void> = [];
    const cut = (port: number) => {
      const heal = blackHole(port);
      heals.push(heal);
      return heal;
    };
    try {
      const env = { REDIS_URL: `redis://127.0.0.1:${redisPort}`, RATE_LIMIT_RPS: '100000', DATABASE_CONNECT_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '2000' };
      await withCluster({ via: 'PostgreSQL', env, adminUrl: postgres.adminUrl }, async ({ haproxy, databaseUrl, ports }) => {
        const prefix = `partition-${Date.now()}-`;
        const client = new PetstoreClient({
          baseUrl: `${haproxy.origin}/v1`,
          apiKey: TEST_KEY,
          maxRetries: 10,
          maxRetryDelayMs: 2_000,
          timeoutMs: 20_000,
          logger: { warn: () => undefined },
        });
        const load = startClientLoad(client, { rate: 100, prefix });
        await sleep(2_000);

        const healRedis = cut(redisPort);
        await sleep(5_000);
        healRedis();
        await sleep(2_000);

        for (let round = 0; round < POSTGRES_CUTS; round += 1) {
          const healPostgres = cut(postgresPort);
          await sleep(POSTGRES_CUT_MS);
          healPostgres();
          await sleep(4_000);
        }

        // One instance silent: HAProxy's checks time out and take it out; what it held is retried elsewhere.
        const healInstance = cut(ports[0]);
        const instanceCutAt = performance.now();
        await haproxy.waitUntilDown(1);
        const takenOutMs = performance.now() - instanceCutAt;
        await sleep(4_000);
        healInstance();
        await haproxy.waitUntilUp(1);
        await sleep(2_000);
        const report = await load.stop();

        const stored = await checkStored(databaseUrl, prefix, report);
        process.stdout.write(
          `partitions (Redis 5 s, PostgreSQL ${POSTGRES_CUTS} x ${POSTGRES_CUT_MS / 1000} s, one instance, HAProxy, @petstore/client): ` +
            `${report.sent} operations, ${report.failures.length} failed, ${report.acknowledged.size} acknowledged creates, ` +
            `${stored.present} present, ${stored.duplicates.length} duplicates; HAProxy took the silent instance out after ${takenOutMs.toFixed(0)} ms\n`,
        );
        expect(report.failures.slice(0, 10)).toEqual([]);
        // Whatever a busy machine managed to offer is counted: there must have been something to count.
        expect(report.acknowledged.size).toBeGreaterThan(0);
        expect(stored.missing).toEqual([]);
        expect(stored.duplicates).toEqual([]);
      });
    } finally {
      for (const heal of heals) heal();
      await redis.stop().catch(() => undefined);
      await postgres.remove();
    }
  }, 240_000);
});
