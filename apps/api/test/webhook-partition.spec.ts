import { DataSource } from 'typeorm';
import { freePort, startWebhookReceiver, TcpRelay, WEBHOOK_RECEIVER_ENV, type WebhookReceiver } from '@petstore/testing';
import { WebhookEndpointStore } from '../src/app/webhooks/webhook-endpoint.store';
import { offerAtRate, quantile } from './support/open-loop';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';
import { until } from './support/until';

// A webhook receiver goes silent (packets dropped, no reset): each attempt ends at WEBHOOK_TIMEOUT_MS and is retried
// on the schedule, the API answers meanwhile without waiting for any attempt, and every event arrives once the receiver
// is back.

const TIMEOUT_MS = 2_000;
const EVENTS = 5;

describe('Webhooks to a receiver that goes silent', () => {
  let receiver: WebhookReceiver;
  let relay: TcpRelay;
  let sut: TestApp;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    relay = new TcpRelay(await freePort(), { host: '127.0.0.1', port: Number(new URL(receiver.url).port) });
    await relay.start();
    sut = await startApp({ env: { ...WEBHOOK_RECEIVER_ENV, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1' } });
    const url = new URL(receiver.url);
    url.port = String(relay.port);
    await new WebhookEndpointStore(sut.app.get(DataSource)).add(url.href, ['pet.created']);
  });
  afterAll(async () => {
    await relay.stop();
    await sut.close();
    await receiver.close();
  });

  const list = async () => {
    const response = await fetch(`${sut.origin}/v1/pets?limit=5`, { headers: AUTH, signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    return { status: response.status };
  };
  /** Whether each of `events` messages has had at least two attempts: its first, timed out, and a retry. */
  const triedAtLeastTwice = (found: Array<{ messageId: number }>, events: number) => {
    const counts = new Map<number, number>();
    for (const { messageId } of found) counts.set(messageId, (counts.get(messageId) ?? 0) + 1);
    return counts.size === events && [...counts.values()].every((count) => count >= 2);
  };
  const attempts = () =>
    sut.app
      .get(DataSource)
      .query(
        'SELECT message_id AS "messageId", attempt, error, attempted_at AS "attemptedAt", duration_ms AS "durationMs" FROM webhook_attempts ORDER BY id',
      ) as Promise<Array<{ messageId: number; attempt: number; error: string | null; attemptedAt: number; durationMs: number }>>;

  it('ends each attempt at its timeout, retries on the schedule, answers the API while attempts hang, and delivers after the heal', async () => {
    const mode = relay.silence();
    for (let i = 0; i < EVENTS; i += 1) {
      const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: `Silent ${i}`, categoryId: 1 }) });
      expect(response.status).toBe(201);
    }
    // The cut lasts until every message has been tried twice, however long a busy machine takes over it: what is
    // judged is each attempt and the API meanwhile, not how many attempts fit in a span of time.
    let triedTwice = false;
    const offeredFrom = Date.now();
    const offered = offerAtRate(40, (elapsed) => triedTwice && elapsed >= 2_000, list);
    const during = await until(attempts, (found) => triedAtLeastTwice(found, EVENTS), 'every message tried twice', 90_000);
    triedTwice = true;
    const cut = await offered;
    relay.heal();

    for (const sample of cut) expect(sample.status).toBe(200);
    const latencies = cut.map(({ ms }) => ms);
    process.stderr.write(
      `Webhook receiver silent (${mode}) until each message was tried twice: ${during.length} attempts, each ${Math.min(...during.map((a) => a.durationMs))}-` +
        `${Math.max(...during.map((a) => a.durationMs))} ms; API p50 ${quantile(latencies, 0.5).toFixed(1)} ms, slowest ${Math.max(...latencies).toFixed(0)} ms\n`,
    );
    // Each attempt ended by its deadline, not by the heal (the error says which).
    for (const attempt of during) {
      expect(attempt.error).toBe(`timeout after ${TIMEOUT_MS} ms`);
      expect(attempt.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(attempt.durationMs).toBeLessThan(TIMEOUT_MS + 3_500);
    }
    // The API waited for no attempt: while each one hung, from its start to its deadline, API requests were sent and
    // answered entirely inside it. Judged by what happened inside each attempt, not by latency, so a slow machine cannot
    // fail it: an answer has the whole attempt (TIMEOUT_MS) to come, where an API blocked by attempts would give none.
    const answeredInside = ({ attemptedAt, durationMs }: { attemptedAt: number; durationMs: number }) =>
      cut.filter(({ sentAt, ms }) => offeredFrom + sentAt >= attemptedAt && offeredFrom + sentAt + ms <= attemptedAt + durationMs).length;
    // The first attempts may have begun before the requests did; every retry began after.
    const judged = during.filter(({ attemptedAt }) => attemptedAt >= offeredFrom);
    expect(judged.length).toBeGreaterThanOrEqual(EVENTS);
    expect(judged.filter((attempt) => answeredInside(attempt) === 0)).toEqual([]);

    expect(await receiver.waitFor(() => receiver.counts().delivered >= EVENTS, 60_000)).toBe(true);
    expect(new Set(receiver.delivered().map(({ webhookId }) => webhookId)).size).toBe(EVENTS);
  }, 120_000);
});
