import { setTimeout as sleep } from 'node:timers/promises';
import {
  freePort,
  type Member,
  type NodeProcess,
  type PatroniCluster,
  patroniRuns,
  registerWebhookEndpoint,
  type RunningPgBouncer,
  spawnService,
  startPatroniCluster,
  startPgBouncer,
  startWebhookReceiver,
  stopNode,
  storedPets,
  waitUntilReady,
  WEBHOOK_RECEIVER_ENV,
  type WebhookReceiver,
} from '@petstore/testing';
import { startCarefulLoad, unexpectedAnswers } from './support/load';
import { TEST_KEY } from './support/test-key';

// A highly available PostgreSQL as docs/operations.md describes it (deploy/patroni: three Patroni members over etcd,
// synchronous replication, HAProxy on Patroni's /primary) losing its primary under a steady load, on three paths:
// through HAProxy, through PgBouncer in front of HAProxy (deploy/pgbouncer as deployed), and straight to one member, as
// a managed database's writer address or a moved DNS name behaves. Each fault is followed, still under load, by the
// old primary returning as a replica. Judged by what was offered, answered and stored, never by how fast: every answer
// is a 2xx or a 503 Error with Retry-After, every acknowledged create is stored once, and the service serves creates
// again without a restart. How long each switch took is printed (docs/operations.md quotes it), not judged.
jest.setTimeout(600_000);

/** A fault: done to the cluster until a writable primary answers (returned); then, still under load, the aftermath. */
interface Fault {
  cause(): Promise<Member>;
  aftermath(): Promise<void>;
}

(patroniRuns('the database failover tests') ? describe : describe.skip)('a PostgreSQL failover under load (Patroni, synchronous replication)', () => {
  let cluster: PatroniCluster;
  let service: NodeProcess | undefined;
  let pgbouncer: RunningPgBouncer | undefined;
  let receiver: WebhookReceiver;
  let registered = false;

  beforeAll(async () => {
    receiver = await startWebhookReceiver({ verify: true });
    cluster = await startPatroniCluster();
  }, 300_000);
  afterAll(async () => {
    await stopService();
    await pgbouncer?.stop();
    await cluster?.stop();
    await receiver?.close();
  });

  async function stopService(): Promise<void> {
    if (service) await stopNode(service);
    service = undefined;
  }

  async function startServiceOn(port: number): Promise<NodeProcess> {
    const started = await spawnService({
      env: {
        ...WEBHOOK_RECEIVER_ENV,
        // Retries a second or two apart: a delivery that met the switch is tried again within the test.
        WEBHOOK_RETRY_SCHEDULE: '1,2,2,2,2,2,2,2,2,2',
        API_KEYS: TEST_KEY,
        DATABASE_URL: cluster.url(port),
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
        DATABASE_STATEMENT_TIMEOUT_MS: '3000',
        RATE_LIMIT_RPS: '0',
        METRICS_PORT: '0',
      },
    });
    await waitUntilReady(started);
    // Once the first instance has migrated the database: every pet created from now on has its pet.created.
    if (!registered) await registerWebhookEndpoint(cluster.url(port), receiver.url, receiver.secret);
    registered = true;
    return started;
  }

  /**
   * Runs `fault` under load, then its aftermath; then every answer must have been 2xx or 503, and every acknowledged
   * create stored once.
   */
  async function underLoad(prefix: string, fault: Fault): Promise<void> {
    const origin = service?.origin ?? '';
    const load = startCarefulLoad({ origin, key: TEST_KEY, prefix });
    await sleep(1_500);
    const faultAt = Date.now();
    await fault.cause();
    const primaryAt = Date.now();
    // Served again: the first create acknowledged after the new primary took writes.
    const deadline = Date.now() + 120_000;
    const servedAgain = () => load.answers.find(({ what, status, at }) => what === 'create' && status === 201 && at > primaryAt);
    while (!servedAgain() && Date.now() < deadline) await sleep(50);
    await fault.aftermath();
    await sleep(1_500);
    await load.stop();
    const servedAt = servedAgain()?.at;
    console.log(
      `${prefix}: ${load.answers.length} answers (${load.answers.filter(({ status }) => status === 503).length} × 503), ` +
        `${load.acknowledged.size} creates acknowledged; a writable primary ${primaryAt - faultAt} ms after the fault, ` +
        `creates served again ${servedAt === undefined ? 'never' : `${servedAt - primaryAt} ms`} after that`,
    );
    // What the service logged of an unexpected answer (an error's stack), to say why in the failure.
    const unexpected = unexpectedAnswers(load.answers);
    const errors = (service?.stdout() ?? '').split('\n').filter((line) => line.includes('"level":50')).slice(0, 3);
    expect({ unexpected: unexpected.slice(0, 5), errors: unexpected.length > 0 ? errors : [] }).toEqual({ unexpected: [], errors: [] });
    expect(servedAt).toBeDefined();
    const stored = (await storedPets((await cluster.waitForPrimary()).pgPort)).filter(({ name }) => name.startsWith(prefix));
    const byName = new Map(stored.map(({ name, id }) => [name, id]));
    expect(stored.length).toBe(byName.size);
    expect([...load.acknowledged].filter(([name, id]) => byName.get(name) !== id)).toEqual([]);

    // A walk of every page through the service sees each acknowledged pet once.
    const walked: number[] = [];
    for (let url: string | undefined = `${origin}/v1/pets?limit=100`; url; ) {
      const page: Response = await fetch(url, { headers: { authorization: `Bearer ${TEST_KEY}` } });
      expect(page.status).toBe(200);
      walked.push(...((await page.json()) as Array<{ id: number }>).map(({ id }) => id));
      url = /^<([^>]+)>; rel="next"$/.exec(page.headers.get('link') ?? '')?.[1];
    }
    const acknowledgedIds = [...load.acknowledged.values()];
    expect(acknowledgedIds.filter((id) => walked.filter((each) => each === id).length !== 1)).toEqual([]);

    // Every acknowledged pet's pet.created delivered at least once, signed as the receiver verifies.
    const deliveredIds = () => new Set(receiver.delivered().map(({ event }) => (event as { data: { id: number } }).data.id));
    await receiver.waitFor(() => acknowledgedIds.every((id) => deliveredIds().has(id)), 120_000);
    expect(acknowledgedIds.filter((id) => !deliveredIds().has(id))).toEqual([]);
  }

  // The old primary returns as a replica (after a kill, started again; cut off, reconnected) while the load goes on.
  const paths: Array<{ path: string; label: string; port: () => Promise<number> }> = [
    { path: 'through HAProxy on /primary', label: 'haproxy', port: async () => cluster.haproxyPort },
    {
      path: 'through PgBouncer (transaction pooling, as deployed) in front of HAProxy',
      label: 'pgbouncer',
      port: async () => {
        pgbouncer = await startPgBouncer({ host: '127.0.0.1', port: cluster.haproxyPort }, await freePort(), 'postgres');
        return Number(new URL(pgbouncer.origin).port);
      },
    },
  ];
  describe.each(paths)('$path', ({ label, port }) => {
    beforeAll(async () => {
      service = await startServiceOn(await port());
    });
    afterAll(async () => {
      await stopService();
      await pgbouncer?.stop();
      pgbouncer = undefined;
    });

    it('loses nothing when the primary is killed (kill -9 of its Patroni and PostgreSQL) and returns as a replica', async () => {
      const old = await cluster.waitForPrimary();
      await underLoad(`${label}-killed-`, {
        async cause() {
          cluster.kill(old);
          return cluster.waitForPrimary({ not: old });
        },
        async aftermath() {
          await cluster.start(old);
          await cluster.waitUntilHealthy();
        },
      });
    });

    it('loses nothing in a planned switchover', async () => {
      const old = await cluster.waitForPrimary();
      await underLoad(`${label}-switched-`, {
        async cause() {
          await cluster.switchover();
          return cluster.waitForPrimary({ not: old });
        },
        aftermath: () => cluster.waitUntilHealthy(),
      });
    });

    it('loses nothing when the primary is cut off from etcd, demotes itself and returns as a replica', async () => {
      const old = await cluster.waitForPrimary();
      await underLoad(`${label}-isolated-`, {
        async cause() {
          old.dcs.silence();
          try {
            return await cluster.waitForPrimary({ not: old });
          } finally {
            old.dcs.heal();
          }
        },
        aftermath: () => cluster.waitUntilHealthy(),
      });
    });
  });

  describe('straight to one member, as a writer address that stays put', () => {
    let member: Member;
    beforeAll(async () => {
      member = await cluster.waitForPrimary();
      service = await startServiceOn(member.pgPort);
    });
    afterAll(stopService);

    /**
     * After each fault the service's address leads to a replica (or to nothing): readiness red, creates refused with
     * 503. Then the member leads again, as a managed database's writer address does once its endpoint moves back.
     */
    async function leadingAgain(): Promise<Member> {
      await cluster.waitUntilHealthy();
      const deadline = Date.now() + 60_000;
      const ready = async () => (await fetch(`${service?.origin}/health/ready`)).status;
      while ((await ready()) !== 503 && Date.now() < deadline) await sleep(100);
      expect(await ready()).toBe(503);
      await cluster.makeSyncStandby(member);
      await cluster.switchover(member);
      return cluster.waitForPrimary({ is: member });
    }

    it('answers 503, never 500, while its member is switched away, and creates again once that member leads again', async () => {
      await underLoad('direct-switched-', {
        async cause() {
          await cluster.switchover();
          await cluster.waitForPrimary({ not: member });
          return leadingAgain();
        },
        aftermath: () => cluster.waitUntilHealthy(),
      });
    });

    it('answers 503, never 500, while its member is killed and rejoins as a replica, and creates once it leads again', async () => {
      await underLoad('direct-killed-', {
        async cause() {
          cluster.kill(member);
          await cluster.waitForPrimary({ not: member });
          await cluster.start(member);
          return leadingAgain();
        },
        aftermath: () => cluster.waitUntilHealthy(),
      });
    });

    it('answers 503, never 500, while its member is cut off from etcd and demotes itself, and creates once it leads again', async () => {
      await underLoad('direct-isolated-', {
        async cause() {
          member.dcs.silence();
          try {
            await cluster.waitForPrimary({ not: member });
          } finally {
            member.dcs.heal();
          }
          return leadingAgain();
        },
        aftermath: () => cluster.waitUntilHealthy(),
      });
    });
  });
});
