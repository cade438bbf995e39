import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, startRedis } from '@petstore/testing';
import Redis from 'ioredis';
import { until } from './support/until';
import { Metrics } from '../src/app/metrics/metrics';
import { RateLimits } from '../src/app/rate-limit/rate-limits';
import { startApp, TEST_KEY, type TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';
import { expectError } from './support/assertions';

const OTHER_KEY = 'pk_second_canary_0123456789abcd';
const get = (sut: TestApp, key = TEST_KEY) => fetch(`${sut.origin}/v1/pets`, { headers: { authorization: `Bearer ${key}` } });

/**
 * Sends requests back to back from `parallel` workers for `seconds` whole one-second windows (from the first request,
 * as the limiter's windows begin), spreading them over the instances. What the limiter should accept follows from
 * what was offered in each window, however few requests a busy machine managed to send: min(offered, limit).
 */
async function offer(instances: TestApp[], key: string, limit: number, seconds: number, parallel = 8) {
  const started = Date.now();
  const until = started + seconds * 1000;
  const offered: number[] = Array(seconds).fill(0);
  /** The `r` (remaining) of each accepted answer's RateLimit field: limit - 1 for the first of each limiter window. */
  const remaining: number[] = [];
  let accepted = 0;
  let sent = 0;
  await Promise.all(
    Array.from({ length: parallel }, async (_, worker) => {
      for (let i = worker; Date.now() < until; i += 1) {
        const window = Math.floor((Date.now() - started) / 1000);
        sent += 1;
        const response = await get(instances[i % instances.length], key);
        await response.arrayBuffer();
        // Only what the service answered within the run: a later answer may fall into a window after it.
        if (Date.now() > until) continue;
        offered[window] += 1;
        if (response.status !== 200) continue;
        accepted += 1;
        remaining.push(Number(/;r=(\d+);/.exec(response.headers.get('ratelimit') ?? '')?.[1]));
      }
    }),
  );
  const due = offered.reduce((sum, inWindow) => sum + Math.min(inWindow, limit), 0);
  return { accepted, due, offered, sent, remaining, seconds };
}

/**
 * A Redis of the test's own, so that what it counted is this test's alone: `counted()` is how many counting calls it
 * ran (the limiter counts with a Lua script, EVALSHA, or EVAL the first time).
 */
async function startCountingRedis() {
  const redis = await startRedis(await freePort());
  const client = new Redis(redis.url, { lazyConnect: true, retryStrategy: () => 100 });
  client.on('error', () => undefined);
  await until(() => client.ping().then(() => true, () => false), Boolean, `redis-server at ${redis.url}`);
  return {
    url: redis.url,
    counted: async () => {
      const stats = await client.info('commandstats');
      return [...stats.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm)].reduce((sum, [, calls]) => sum + Number(calls), 0);
    },
    keys: () => client.keys('*'),
    stop: async () => {
      client.disconnect();
      await redis.stop();
    },
  };
}

/**
 * The limit held, judged by what the service answered rather than by the test's clock, whose seconds a busy machine
 * shifts against the limiter's (a window opens at its first request, whenever that is handled):
 * - no more accepted than the limit in each window the limiter opened, counted by the answers that began one (`r` at
 *   limit - 1), of which there are at most one per second of the run. A limit kept per instance rather than shared
 *   opens a window per instance, and fails this.
 * - at least 90% of what was due: in each second, what was offered, up to the limit.
 * A request Redis did not answer in time is counted by its instance instead, as designed, and may open a window of its
 * own there; each one is counted by the service.
 */
function expectLimitHeld({ accepted, due, offered, remaining, seconds }: Awaited<ReturnType<typeof offer>>, limit: number, countedInProcess = 0) {
  const windows = remaining.filter((r) => r === limit - 1).length;
  process.stderr.write(
    `rate limit ${limit}/s: offered ${offered.join(', ')} per second, accepted ${accepted} in ${windows} windows, due ${due}` +
      `${countedInProcess ? `, ${countedInProcess} counted in-process (Redis missed its budget)` : ''}\n`,
  );
  expect(remaining.every((r) => Number.isInteger(r) && r >= 0 && r < limit)).toBe(true);
  expect(windows).toBeLessThanOrEqual(seconds + countedInProcess);
  expect(accepted).toBeLessThanOrEqual(limit * windows);
  expect(accepted).toBeGreaterThanOrEqual(Math.floor(due * 0.9));
}

/**
 * `count` requests at once, as a burst that fits in one of the limiter's windows: the window opens at the first
 * request's consume, so a burst answered within a second of its start was counted in one window. A burst a busy
 * machine stretched past that proves nothing, and is sent again once its windows have passed.
 */
async function burstInOneWindow(send: () => Promise<Response>, count: number): Promise<Response[]> {
  for (let attempt = 1; ; attempt += 1) {
    const started = performance.now();
    const responses = await Promise.all(Array.from({ length: count }, send));
    if (performance.now() - started < 1_000) return responses;
    if (attempt === 10) throw new Error(`no burst of ${count} requests was answered within one second in ${attempt} attempts`);
    await sleep(2_100);
  }
}

describe('rate limits', () => {
  describe('per API key, in process', () => {
    let sut: TestApp;
    beforeAll(async () => {
      sut = await startApp({ env: { RATE_LIMIT_RPS: '10', API_KEYS: `${TEST_KEY},${OTHER_KEY}` } });
    });
    afterAll(() => sut.close());

    it('answers 429 rate_limited with Retry-After and RateLimit fields once the second is spent, never throttling another key', async () => {
      const responses = await burstInOneWindow(() => get(sut), 15);
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      const limited = responses.find((r) => r.status === 429) as Response;
      await expectError(limited, 429, 'rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get('ratelimit-policy')).toBe('"default";q=10;w=1');
      expect(limited.headers.get('ratelimit')).toMatch(/^"default";r=0;t=1$/);
      expect((await get(sut, OTHER_KEY)).status).toBe(200);
    });

    it('sends the RateLimit fields on allowed responses, counting down', async () => {
      await sleep(1_100);
      // Two requests counted in one window, however slow the machine: a fresh window for this key, sent again if
      // their answers took longer than it.
      const both = await burstInOneWindow(() => get(sut, OTHER_KEY), 2);
      for (const response of both) expect(response.headers.get('ratelimit-policy')).toBe('"default";q=10;w=1');
      const remaining = (r: Response) => Number(/r=(\d+)/.exec(r.headers.get('ratelimit') ?? '')?.[1]);
      expect(both.map(remaining).sort()).toEqual([8, 9]);
    });

    it('sends the RateLimit fields on the errors of authenticated requests too, as the OpenAPI document declares', async () => {
      await sleep(1_100);
      const auth = { authorization: `Bearer ${OTHER_KEY}` };
      const invalid = await fetch(`${sut.origin}/v1/pets?limit=0`, { headers: auth });
      const absent = await fetch(`${sut.origin}/v1/pets/${Number.MAX_SAFE_INTEGER}`, { headers: auth });
      await expectError(invalid, 400, 'validation_failed');
      await expectError(absent, 404, 'not_found');
      for (const response of [invalid, absent]) {
        expect(response.headers.get('ratelimit-policy')).toBe('"default";q=10;w=1');
        expect(response.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=1$/);
      }
    });

    it('holds the limit in every window under sustained load, and accepts at least 90% of what was due', async () => {
      await sleep(1_100);
      expectLimitHeld(await offer([sut], TEST_KEY, 10, 3), 10);
    });
  });

  describe('turned off', () => {
    it('never answers 429 nor sends RateLimit fields with RATE_LIMIT_RPS=0', async () => {
      const sut = await startApp({ env: { RATE_LIMIT_RPS: '0' } });
      try {
        const responses = await Promise.all(Array.from({ length: 150 }, () => get(sut)));
        expect(responses.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
        expect(responses.some((r) => r.headers.has('ratelimit') || r.headers.has('ratelimit-policy'))).toBe(false);
      } finally {
        await sut.close();
      }
    });
  });

  describe('failed authentication per address', () => {
    it("tells on each 401, in RateLimit fields, how many failures the address has left", async () => {
      const sut = await startApp({ env: { RATE_LIMIT_AUTH_FAILURES: '5' } });
      try {
        const first = await get(sut, 'pk_guess_a_0123456789abc');
        const second = await get(sut, 'pk_guess_b_0123456789abc');
        await expectError(first, 401, 'unauthorized');
        await expectError(second, 401, 'unauthorized');
        expect(first.headers.get('ratelimit-policy')).toBe('"auth-failures";q=5;w=60');
        expect(first.headers.get('ratelimit')).toMatch(/^"auth-failures";r=4;t=\d+$/);
        expect(second.headers.get('ratelimit')).toMatch(/^"auth-failures";r=3;t=\d+$/);
        expect(first.headers.get('www-authenticate')).toBe('Bearer');
      } finally {
        await sut.close();
      }
    });

    it('sends no RateLimit fields on a 401 with RATE_LIMIT_AUTH_FAILURES=0', async () => {
      const sut = await startApp({ env: { RATE_LIMIT_AUTH_FAILURES: '0' } });
      try {
        const response = await get(sut, 'pk_guess_c_0123456789abc');
        await expectError(response, 401, 'unauthorized');
        expect(response.headers.has('ratelimit') || response.headers.has('ratelimit-policy')).toBe(false);
      } finally {
        await sut.close();
      }
    });

    it('answers 429 once an address has failed too often, so that keys cannot be guessed quickly', async () => {
      const sut = await startApp({ env: { RATE_LIMIT_AUTH_FAILURES: '5' } });
      try {
        for (let i = 0; i < 5; i += 1) await expectError(await get(sut, `pk_guess_${i}_0123456789abc`), 401, 'unauthorized');
        const blocked = await get(sut, 'pk_guess_6_0123456789abc');
        await expectError(blocked, 429, 'rate_limited');
        expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(1);
        // Even the right key waits: otherwise a guesser would learn which guess was right.
        await expectError(await get(sut), 429, 'rate_limited');
      } finally {
        await sut.close();
      }
    });
  });

  describe('shared through Redis', () => {
    it('holds one limit across two instances, counted in Redis', async () => {
      const key = `pk_redis_${Date.now()}_${Math.random().toString(36).slice(2)}`;
      const database = await createTestDatabase();
      const redis = await startCountingRedis();
      // A budget no busy machine exhausts: this test is about sharing, not about falling back (redis-partition.spec.ts).
      const env = { RATE_LIMIT_RPS: '20', RATE_LIMIT_AUTH_FAILURES: '30', REDIS_URL: redis.url, RATE_LIMIT_REDIS_TIMEOUT_MS: '2000', API_KEYS: key };
      const instances = [await startApp({ database, env }), await startApp({ database, env })];
      try {
        const before = await redis.counted();
        const offered = await offer(instances, key, 20, 3);
        const countedInProcess = instances.reduce((sum, sut) => sum + sut.app.get(RateLimits).countedInProcess, 0);
        // Redis counted the requests: nearly all of them (a call past its 2 s budget is counted in-process instead).
        expect(countedInProcess).toBeLessThanOrEqual(offered.sent * 0.1);
        expect((await redis.counted()) - before).toBeGreaterThanOrEqual(offered.sent - countedInProcess);
        // Some second was offered more than two instances' own limits would let through: a limit kept per instance
        // would have accepted twice the limit there.
        expect(Math.max(...offered.offered)).toBeGreaterThan(2 * 20 * 1.1);
        expectLimitHeld(offered, 20, countedInProcess);
        // Under a prefix of their own, so that an operator can tell them from other data in a shared Redis: a failed
        // authentication's counter, kept for its minute (a key's lasts its one-second window, too short to look at).
        expect((await get(instances[0], 'pk_not_a_key_0123456789')).status).toBe(401);
        expect(await redis.keys()).toContainEqual(expect.stringMatching(/^petstore:rl:auth-failures:/));
      } finally {
        for (const sut of instances) await sut.close();
        await redis.stop();
        await database.drop();
      }
    });

    it('falls back to per-instance limits, and keeps serving, when Redis is unreachable', async () => {
      const sut = await startApp({ env: { RATE_LIMIT_RPS: '5', REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
      try {
        const statuses = (await burstInOneWindow(() => get(sut), 8)).map((r) => r.status);
        expect(statuses.filter((s) => s === 200)).toHaveLength(5);
        expect(statuses.filter((s) => s === 429)).toHaveLength(3);
        // Each of them counted in this process, and said so to Prometheus.
        expect(sut.app.get(RateLimits).countedInProcess).toBeGreaterThanOrEqual(8);
        const scraped = await sut.app.get(Metrics).registry.metrics();
        expect(Number(/^petstore_rate_limit_in_process_counts_total (\d+)$/m.exec(scraped)?.[1])).toBe(sut.app.get(RateLimits).countedInProcess);
      } finally {
        await sut.close();
      }
    });
  });
});
