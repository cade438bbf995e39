import { setTimeout as sleep } from 'node:timers/promises';
import { PetstoreClient } from '@petstore/client';
import { freePort, startRedis } from '@petstore/testing';
import { checkStored, INSTANCES, withCluster } from './support/cluster';
import { haproxyInstalled } from './support/haproxy';
import { startClientLoad } from './support/load';
import { createPostgres, postgresBinaries } from './support/private-servers';
import { TEST_KEY } from './support/test-key';

/** Statuses of a few plain requests through HAProxy, with each answer's Retry-After. */
async function probe(origin: string, count = 5): Promise<Array<{ status: number; retryAfter: string | null }>> {
  const answers = [];
  for (let i = 0; i < count; i += 1) {
    const response = await fetch(`${origin}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
    await response.arrayBuffer();
    answers.push({ status: response.status, retryAfter: response.headers.get('retry-after') });
    await sleep(100);
  }
  return answers;
}

// Redis and PostgreSQL of the test's own, so that restarting them disturbs no other suite.
describe('Redis and PostgreSQL restarted under load, behind HAProxy', () => {
  it('refuses nothing while Redis is away, answers 503 with Retry-After while PostgreSQL is, and loses nothing', async () => {
    if (!haproxyInstalled() || !postgresBinaries()) {
      if (process.env.CI === 'true') throw new Error('haproxy and PostgreSQL server binaries are needed: .ci/run installs haproxy');
      process.stderr.write('SKIPPED the outage tests: haproxy or PostgreSQL server binaries are missing\n');
      return;
    }
    const redisPort = await freePort();
    let redis = await startRedis(redisPort);
    const postgres = await createPostgres(await freePort());
    try {
      // Rate limits on and shared through Redis, high enough never to refuse this load.
      const env = { REDIS_URL: `redis://127.0.0.1:${redisPort}`, RATE_LIMIT_RPS: '100000' };
      await withCluster({ via: 'PostgreSQL', env, adminUrl: postgres.adminUrl }, async ({ haproxy, databaseUrl }) => {
        const prefix = `outage-${Date.now()}-`;
        // A caller that rides out an outage of a few seconds: retries with the service's Retry-After.
        const client = new PetstoreClient({ baseUrl: `${haproxy.origin}/v1`, apiKey: TEST_KEY, maxRetries: 10, maxRetryDelayMs: 2_000, logger: { warn: () => undefined } });
        const load = startClientLoad(client, { rate: 200, prefix });
        // Each step waits for the state it needs (the load under way, HAProxy's view of the instances), not a time.
        const underWay = async (operations: number) => {
          for (const target = load.sent() + operations; load.sent() < target; ) await sleep(50);
        };
        const instancesAre = async (up: boolean) => {
          for (let server = 1; server <= INSTANCES; server += 1) await (up ? haproxy.waitUntilUp(server) : haproxy.waitUntilDown(server));
        };
        await underWay(100);

        await redis.stop();
        const withoutRedis = await probe(haproxy.origin);
        await underWay(100);
        redis = await startRedis(redisPort);
        await underWay(100);

        await postgres.stop();
        // HAProxy takes the instances out once their readiness fails twice: then it answers itself.
        await instancesAre(false);
        const withoutPostgres = await probe(haproxy.origin);
        await postgres.start();
        // The instances reconnect, pass readiness, and HAProxy takes them back; the load then runs on them a while.
        await instancesAre(true);
        await underWay(100);
        const report = await load.stop();

        const stored = await checkStored(databaseUrl, prefix, report);
        process.stdout.write(
          `outages (Redis then PostgreSQL restarted, HAProxy, @petstore/client): ${report.sent} operations, ${report.failures.length} failed, ` +
            `${report.acknowledged.size} acknowledged creates, ${stored.present} present, ${stored.duplicates.length} duplicates; ` +
            `without Redis: ${withoutRedis.map((a) => a.status).join(' ')}; without PostgreSQL: ${withoutPostgres.map((a) => `${a.status}/${a.retryAfter}`).join(' ')}\n`,
        );
        expect(withoutRedis.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
        for (const answer of withoutPostgres) expect(answer).toEqual({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
        expect(report.failures.slice(0, 10)).toEqual([]);
        expect(stored.missing).toEqual([]);
        expect(stored.duplicates).toEqual([]);
      });
    } finally {
      await redis.stop().catch(() => undefined);
      await postgres.remove();
    }
  }, 120_000);
});
