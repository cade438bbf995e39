import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, pgbouncerInstalled, type RunningPgBouncer, startPgBouncer, TcpRelay } from '@petstore/testing';
import { offerAtRate, quantile, type Sample } from '../support/open-loop';
import { AUTH, JSON_AUTH, startApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { until } from '../support/until';
import { DataSource } from 'typeorm';
import { WATCH_TIMING } from '../../src/app/database/database-watch';
import { Metrics } from '../../src/app/metrics/metrics';

// PostgreSQL goes silent (packets dropped, no reset) under a steady offer of creates and lists, then comes back. No
// request may wait for the heal: each is answered within the configured timeouts, with 503 at once once the service
// knows; readiness turns red; requests sent a little after the heal succeed; and every create is stored exactly once.

/** What busy CI machines add to the bounds below; the promises are tighter (docs/operations.md). */
const SLACK_MS = 2_000;
// Longer than the slack, so that a 503 "at once" (answered without trying the database, within SLACK_MS) cannot be
// mistaken for one that waited for a connection to time out.
const CONNECT_TIMEOUT_MS = 2 * SLACK_MS;
const STATEMENT_TIMEOUT_MS = 2_000;
const CALM_MS = 2_000;
const CUT_MS = 12_000;
/**
 * After the heal, the service serves again once a heartbeat is answered: the one under way may still wait out its
 * deadline on the dead path, then the next starts everyMs later on a connection of its own, made at once now.
 */
const SERVING_AGAIN_MS = WATCH_TIMING.deadlineMs + WATCH_TIMING.everyMs;
// Room after the heal for the service to serve again and then show it keeps serving (at least 40 requests at 40/s).
const AFTER_MS = SERVING_AGAIN_MS + SLACK_MS + 8_000;

/** How many of each status, as printed. */
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

interface Create {
  name: string;
  key: string;
  id?: number;
}

/** Where the partition is, relative to the service. */
interface Topology {
  /** The DATABASE_URL the service gets. */
  url: string;
  relay: TcpRelay;
  stop(): Promise<void>;
}

/** service -> relay -> the test database (PostgreSQL, or the PgBouncer of the PgBouncer leg). */
async function relayToDatabase(database: TestDatabase): Promise<Topology> {
  const url = new URL(database.url);
  const relay = new TcpRelay(await freePort(), { host: url.hostname, port: Number(url.port || 5432) });
  await relay.start();
  url.hostname = '127.0.0.1';
  url.port = String(relay.port);
  return { url: url.href, relay, stop: () => relay.stop() };
}

/** service -> a PgBouncer of the test's own -> relay -> PostgreSQL: the cut behind the pooler. */
async function relayBehindPgBouncer(database: TestDatabase): Promise<Topology> {
  const url = new URL(database.url);
  const relay = new TcpRelay(await freePort(), { host: url.hostname, port: Number(url.port || 5432) });
  await relay.start();
  const bouncer: RunningPgBouncer = await startPgBouncer({ host: '127.0.0.1', port: relay.port }, await freePort());
  return {
    url: `${bouncer.origin}${url.pathname}`,
    relay,
    stop: async () => {
      await relay.stop();
      await bouncer.stop();
    },
  };
}

describe('PostgreSQL partitioned', () => {
  let database: TestDatabase;
  let topology: Topology | undefined;
  let sut: TestApp | undefined;

  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await topology?.stop();
    await sut?.close();
    sut = topology = undefined;
    await database.drop();
  });

  const partitionUnderLoad = async (place: string, connect: (database: TestDatabase) => Promise<Topology>) => {
    topology = await connect(database);
    const { relay } = topology;
    const app = (sut = await startApp({
      database,
      env: { DATABASE_URL: topology.url, DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS), DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) },
    }));
    const creates: Create[] = [];
    const send = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${app.origin}${path}`, { ...init, signal: AbortSignal.timeout(60_000) });
      const body = (await response.json()) as { id?: number; code?: string };
      return { status: response.status, detail: { body, retryAfter: response.headers.get('retry-after') } };
    };
    const create = (entry: Create) =>
      send('/v1/pets', { method: 'POST', headers: { ...JSON_AUTH, 'idempotency-key': entry.key }, body: JSON.stringify({ name: entry.name, categoryId: 1 }) });

    // Readiness, asked every 100 ms: when it first turned red after the cut, and green after the heal. Kubernetes'
    // readiness (/health/routable) beside it: every answer it gave after the start, which must all be 200.
    let cutAt = Infinity;
    let healedAt = Infinity;
    let redAt: number | undefined;
    let stopProbing = false;
    const routable: number[] = [];
    const started = performance.now();
    const statusOf = (path: string) => fetch(`${app.origin}${path}`, { signal: AbortSignal.timeout(60_000) }).then((r) => r.status, () => 0);
    const probing = (async () => {
      while (!stopProbing) {
        const [status, routableStatus] = await Promise.all([statusOf('/health/ready'), statusOf('/health/routable')]);
        const at = performance.now() - started;
        if (status !== 200 && at > cutAt && redAt === undefined) redAt = at;
        routable.push(routableStatus);
        await sleep(100);
      }
    })();

    const load = offerAtRate(40, (elapsed) => elapsed >= CALM_MS + CUT_MS + AFTER_MS, (index) => {
      if (index % 2 === 1) return send('/v1/pets?limit=5', { headers: AUTH });
      const entry: Create = { name: `partition-${randomUUID()}`, key: randomUUID() };
      creates.push(entry);
      return create(entry).then((answer) => {
        if (answer.status === 201) entry.id = answer.detail.body.id;
        return answer;
      });
    });
    await sleep(CALM_MS);
    const mode = relay.silence();
    cutAt = performance.now() - started;
    await sleep(CUT_MS);
    relay.heal();
    healedAt = performance.now() - started;
    const samples = await load;
    stopProbing = true;
    await probing;

    // The load's clock started a moment after the probe's; near enough for bounds of seconds.
    const during = samples.filter(({ sentAt }) => sentAt >= cutAt && sentAt < healedAt);
    const knownAt = (redAt ?? Infinity) + 500;
    const known = samples.filter(({ sentAt }) => sentAt >= knownAt && sentAt < healedAt - 1_000);
    const later = samples.filter(({ sentAt }) => sentAt >= healedAt + SERVING_AGAIN_MS + SLACK_MS);
    const ms = (list: Array<Sample<unknown>>) => list.map((sample) => sample.ms);
    process.stderr.write(
      `PostgreSQL silent (${place}, ${mode}) for ${CUT_MS / 1000} s at 40 requests/s: readiness red after ${((redAt ?? NaN) - cutAt).toFixed(0)} ms; ` +
        `during the cut ${during.filter((s) => s.status === 503).length} x 503, slowest ${Math.max(...ms(during)).toFixed(0)} ms; ` +
        `once known p50 ${quantile(ms(known), 0.5).toFixed(1)} ms, slowest ${Math.max(...ms(known)).toFixed(0)} ms; ` +
        `from ${((SERVING_AGAIN_MS + SLACK_MS) / 1000).toFixed(1)} s after the heal ${later.filter((s) => s.status < 300).length}/${later.length} served; ` +
        `requests sent during the cut by status ${JSON.stringify(tally(during.map(({ status }) => status)))}; /health/routable ${JSON.stringify(tally(routable))}\n`,
    );
    // A Kubernetes Service keeps the instance throughout, so callers get the 503s above rather than connection errors.
    expect(routable.filter((status) => status !== 200)).toEqual([]);

    // Every request answered (none waited for the heal, nor for its own 60 s deadline), 2xx or the Error 503.
    for (const sample of samples) {
      expect([200, 201, 503]).toContain(sample.status);
      if (sample.status === 503) expect(sample.detail).toEqual({ body: expect.objectContaining({ code: 'service_unavailable' }), retryAfter: '1' });
    }
    expect(Math.max(...ms(samples))).toBeLessThan(CONNECT_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 1_000 + SLACK_MS);
    expect((redAt ?? Infinity) - cutAt).toBeLessThan(WATCH_TIMING.everyMs + WATCH_TIMING.deadlineMs + SLACK_MS);
    expect(known.length).toBeGreaterThan(100);
    for (const sample of known) {
      expect(sample.status).toBe(503);
      expect(sample.ms).toBeLessThan(SLACK_MS);
    }
    // Serving again is judged by what happened, not by how soon (behind PgBouncer, its pool's dead server connections
    // may refuse a few more requests on a busy machine): after the heal, from some request on, every one is served.
    const afterHeal = samples.filter(({ sentAt }) => sentAt >= healedAt).sort((a, b) => a.sentAt - b.sentAt);
    let servedFrom = 0;
    afterHeal.forEach(({ status }, index) => {
      if (status >= 300) servedFrom = index + 1;
    });
    expect(afterHeal.length - servedFrom).toBeGreaterThan(40);

    // A create whose answer was lost is retried with its key: stored once, and every acknowledged create is stored.
    for (const entry of creates.filter(({ id }) => id === undefined)) {
      const answer = await create(entry);
      expect(answer.status).toBe(201);
      entry.id = answer.detail.body.id;
    }
    const stored = new Map<string, number[]>();
    for (const pet of await app.storedPets()) stored.set(pet.name, [...(stored.get(pet.name) ?? []), pet.id]);
    for (const entry of creates) expect({ name: entry.name, ids: stored.get(entry.name) }).toEqual({ name: entry.name, ids: [entry.id] });
  };

  // behaviour.md: SIGTERM ends with exit 0 within 10 s, whatever the database does: closing (operations under way, the
  // pool, the heartbeat's connection) must not wait for a database that has gone silent.
  it('closes while the database is silent, once it knows, without waiting for the database to return', async () => {
    topology = await relayToDatabase(database);
    const app = (sut = await startApp({ database, env: { DATABASE_URL: topology.url, DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '2000' } }));
    // Connections in the pool, idle and in use, when the path goes silent.
    await Promise.all(Array.from({ length: 5 }, () => fetch(`${app.origin}/v1/pets`, { headers: AUTH }).then((r) => r.arrayBuffer())));
    topology.relay.silence();
    await until(() => fetch(`${app.origin}/health/ready`).then((r) => r.status), (status) => status === 503, 'readiness red');
    await app.close();
    sut = undefined;
    expect(app.app.get(DataSource).isInitialized).toBe(false);
  }, 120_000);

  // docs/operations.md's PetstoreDatabaseDown alert reads petstore_database_up: 0 while the database is away.
  it('reports the database down, and the instance not ready, in its metrics while the database is silent, and up once back', async () => {
    topology = await relayToDatabase(database);
    const app = (sut = await startApp({ database, env: { DATABASE_URL: topology.url, DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '2000' } }));
    const gauges = async () => {
      const { registry } = app.app.get(Metrics);
      const value = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values[0]?.value;
      return { up: await value('petstore_database_up'), ready: await value('petstore_ready') };
    };
    await expect(gauges()).resolves.toEqual({ up: 1, ready: 1 });
    topology.relay.silence();
    await until(gauges, ({ up, ready }) => up === 0 && ready === 0, 'petstore_database_up and petstore_ready at 0', 60_000);
    topology.relay.heal();
    await until(gauges, ({ up, ready }) => up === 1 && ready === 1, 'petstore_database_up and petstore_ready at 1', 60_000);
  }, 120_000);

  it('answers within the timeouts, 503 at once once known, and serves again soon after the heal (service to database)', async () => {
    await partitionUnderLoad(process.env.PETSTORE_TEST_VIA_PGBOUNCER === 'true' ? 'between the service and PgBouncer' : 'between the service and PostgreSQL', relayToDatabase);
  }, 120_000);

  // The PgBouncer leg's own PgBouncer is shared by every test: the cut behind a pooler gets one of its own, once.
  const behindPgBouncer = process.env.PETSTORE_TEST_VIA_PGBOUNCER === 'true' ? it.skip : pgbouncerInstalled() || process.env.CI === 'true' ? it : it.skip;
  if (!pgbouncerInstalled() && process.env.CI !== 'true') process.stderr.write('SKIPPED the partition behind PgBouncer: pgbouncer is not installed\n');
  behindPgBouncer('does the same when the cut is behind PgBouncer', async () => {
    await partitionUnderLoad('between PgBouncer and PostgreSQL', relayBehindPgBouncer);
  }, 120_000);
});
