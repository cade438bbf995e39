import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type NodeProcess,
  registerWebhookEndpoint,
  spawnService,
  startWebhookReceiver,
  stopNode,
  waitUntilReady,
  WEBHOOK_RECEIVER_ENV,
  type WebhookReceiver,
} from '@petstore/testing';
import { type Member, type PatroniCluster, patroniRuns, startPatroniCluster, storedPets } from './support/patroni';
import { TEST_KEY } from './support/test-key';

// A highly available PostgreSQL as docs/operations.md describes it (deploy/patroni: three Patroni members over etcd,
// synchronous replication, HAProxy on Patroni's /primary) losing its primary under a steady load, on two paths: through
// HAProxy, and straight to one member, as a managed database's writer address or a moved DNS name behaves. Judged by
// what was offered, answered and stored, never by how fast: every answer is a 2xx or a 503 Error with Retry-After,
// every acknowledged create is stored once, and the service serves creates again without a restart. How long each
// switch took is printed (docs/operations.md quotes it), not judged.
jest.setTimeout(600_000);

interface Answer {
  what: 'create' | 'list';
  status: number;
  at: number;
  body: string;
  retryAfter: string | null;
}

/** Creates with an Idempotency-Key (a 503 retried with the same key after Retry-After, as a careful client does) and lists. */
function offerLoad(origin: string, prefix: string) {
  const answers: Answer[] = [];
  const acknowledged = new Map<string, number>();
  let running = true;
  const headers = { authorization: `Bearer ${TEST_KEY}` };
  const ask = async (what: Answer['what'], init: RequestInit & { url: string }): Promise<Answer> => {
    try {
      const response = await fetch(init.url, { ...init, headers: { ...headers, ...init.headers }, signal: AbortSignal.timeout(60_000) });
      const answer = { what, status: response.status, at: Date.now(), body: await response.text(), retryAfter: response.headers.get('retry-after') };
      answers.push(answer);
      return answer;
    } catch (error) {
      const answer = { what, status: 0, at: Date.now(), body: String((error as Error).cause ?? error), retryAfter: null };
      answers.push(answer);
      return answer;
    }
  };
  const creating = (async () => {
    while (running) {
      const name = `${prefix}${randomUUID()}`;
      const key = randomUUID();
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const answer = await ask('create', {
          url: `${origin}/v1/pets`,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({ name, categoryId: 1 }),
        });
        if (answer.status === 201) {
          acknowledged.set(name, (JSON.parse(answer.body) as { id: number }).id);
          break;
        }
        if (answer.status !== 503 && answer.status !== 409) break;
        await sleep(Number(answer.retryAfter ?? 1) * 1000);
      }
      await sleep(20);
    }
  })();
  const listing = (async () => {
    while (running) {
      await ask('list', { url: `${origin}/v1/pets?limit=20` });
      await sleep(50);
    }
  })();
  return {
    answers,
    acknowledged,
    async stop() {
      running = false;
      await Promise.all([creating, listing]);
    },
  };
}

/** The answers that are neither a 2xx nor a 503 Error with Retry-After (a 409 while a retried create is still running counts as the latter's kin). */
const unexpected = (answers: Answer[]) =>
  answers.filter(({ status, retryAfter, body }) => {
    if (status >= 200 && status < 300) return false;
    if ((status === 503 || status === 409) && retryAfter !== null && /"code":"(service_unavailable|idempotency_key_in_use)"/.test(body)) return false;
    return true;
  });

(patroniRuns('the database failover tests') ? describe : describe.skip)('a PostgreSQL failover under load (Patroni, synchronous replication)', () => {
  let cluster: PatroniCluster;
  let service: NodeProcess | undefined;
  let receiver: WebhookReceiver;
  let registered = false;

  beforeAll(async () => {
    receiver = await startWebhookReceiver({ verify: true });
    cluster = await startPatroniCluster();
  }, 300_000);
  afterAll(async () => {
    await stopService();
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

  /** Runs `fault` under load; then every answer must have been 2xx or 503, and every acknowledged create stored once. */
  async function underLoad(prefix: string, fault: () => Promise<Member>): Promise<void> {
    const origin = service?.origin ?? '';
    const load = offerLoad(origin, prefix);
    await sleep(1_500);
    const faultAt = Date.now();
    const writableAgain = await fault();
    const primaryAt = Date.now();
    // Served again: the first create acknowledged after the new primary took writes.
    const deadline = Date.now() + 120_000;
    while (!load.answers.some(({ what, status, at }) => what === 'create' && status === 201 && at > primaryAt) && Date.now() < deadline) await sleep(50);
    await sleep(1_500);
    await load.stop();
    const servedAt = load.answers.find(({ what, status, at }) => what === 'create' && status === 201 && at > primaryAt)?.at;
    console.log(
      `${prefix}: ${load.answers.length} answers (${load.answers.filter(({ status }) => status === 503).length} × 503), ` +
        `${load.acknowledged.size} creates acknowledged; a writable primary ${primaryAt - faultAt} ms after the fault, ` +
        `creates served again ${servedAt === undefined ? 'never' : `${servedAt - primaryAt} ms`} after that`,
    );
    // What the service logged of an unexpected answer (an error's stack), to say why in the failure.
    const errors = (service?.stdout() ?? '').split('\n').filter((line) => line.includes('"level":50')).slice(0, 3);
    expect({ unexpected: unexpected(load.answers).slice(0, 5), errors: unexpected(load.answers).length > 0 ? errors : [] }).toEqual({ unexpected: [], errors: [] });
    expect(servedAt).toBeDefined();
    const stored = (await storedPets(writableAgain.pgPort)).filter(({ name }) => name.startsWith(prefix));
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

  describe('through HAProxy on /primary', () => {
    beforeAll(async () => {
      service = await startServiceOn(cluster.haproxyPort);
    });
    afterAll(stopService);

    it('loses nothing when the primary is killed (kill -9 of its Patroni and PostgreSQL)', async () => {
      const old = await cluster.waitForPrimary();
      await underLoad('killed-', async () => {
        cluster.kill(old);
        return cluster.waitForPrimary({ not: old });
      });
      await cluster.start(old);
      await cluster.waitUntilHealthy();
    });

    it('loses nothing in a planned switchover', async () => {
      const old = await cluster.waitForPrimary();
      await underLoad('switched-', async () => {
        await cluster.switchover();
        return cluster.waitForPrimary({ not: old });
      });
      await cluster.waitUntilHealthy();
    });

    it('loses nothing when the primary is cut off from etcd and demotes itself', async () => {
      const old = await cluster.waitForPrimary();
      await underLoad('isolated-', async () => {
        old.dcs.silence();
        try {
          return await cluster.waitForPrimary({ not: old });
        } finally {
          old.dcs.heal();
        }
      });
      await cluster.waitUntilHealthy();
    });
  });

  describe('straight to one member, as a writer address that stays put', () => {
    it('answers 503, never 500, while its member is demoted, and creates again once that member leads again', async () => {
      const member = await cluster.waitForPrimary();
      service = await startServiceOn(member.pgPort);
      try {
        await underLoad('direct-', async () => {
          await cluster.switchover();
          await cluster.waitForPrimary({ not: member });
          await cluster.waitUntilHealthy();
          // The service's address leads to a replica now: readiness red, creates refused with 503.
          const deadline = Date.now() + 60_000;
          const ready = async () => (await fetch(`${service?.origin}/health/ready`)).status;
          while ((await ready()) !== 503 && Date.now() < deadline) await sleep(100);
          expect(await ready()).toBe(503);
          await cluster.switchover(member);
          return cluster.waitForPrimary({ is: member });
        });
      } finally {
        await stopService();
      }
    });
  });
});
