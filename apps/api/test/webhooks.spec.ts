import { setTimeout as sleep } from 'node:timers/promises';
import type { Pet } from '@petstore/contract';
import { startWebhookReceiver, type WebhookReceiver, type WebhookReceiverOptions } from '@petstore/testing';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { Metrics } from '../src/app/metrics/metrics';
import { ApiPressure } from '../src/app/webhooks/api-pressure';
import { type AttemptRecord, type ClaimedMessage, WebhookOutbox } from '../src/app/webhooks/outbox/webhook-outbox';
import { WebhookEndpointStore } from '../src/app/webhooks/webhook-endpoint.store';
import { WebhookOutboxPurge } from '../src/app/webhooks/webhook-outbox-purge';
import { generateWebhookSecret } from '../src/app/webhooks/webhook-signature';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';
import { createTestDatabase, TEST_DATABASE, type TestDatabase } from './support/test-database';
import { until } from './support/until';

// Events (behaviour.md, "Events"): pet.created, signed per Standard Webhooks, from the outbox, at least once.
const LOCAL = { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' };
/** The longest attempt deadline there is, longer than any test here runs: an unanswered attempt stays in flight. */
const UNENDING_ATTEMPTS = { WEBHOOK_TIMEOUT_MS: '60000' };

const register = (sut: TestApp, url: string) => new WebhookEndpointStore(sut.app.get(DataSource)).add(url, ['pet.created']);

const create = async (sut: TestApp, name = 'Rex', headers: Record<string, string> = {}): Promise<Pet> => {
  const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: { ...JSON_AUTH, ...headers }, body: JSON.stringify({ name, categoryId: 1 }) });
  if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}\n${sut.rawLogs().split('\n').filter((l) => /"level":[45]0/.test(l)).join('\n').slice(0, 3000)}`);
  return (await response.json()) as Pet;
};

/** Every delivery answered 2xx, by webhook-id. */
const deliveredIds = (hooks: WebhookReceiver) => hooks.delivered().map(({ webhookId }) => webhookId);

const query = (sut: TestApp, sql: string) => sut.app.get(DataSource).query(sql) as Promise<Array<Record<string, unknown>>>;

describe('webhooks', () => {
  const receivers: WebhookReceiver[] = [];
  const apps: TestApp[] = [];
  const receiver = async (answer?: WebhookReceiverOptions['answer']) => {
    const started = await startWebhookReceiver({ answer });
    receivers.push(started);
    return started;
  };
  const app = async (env: Record<string, string> = {}, database?: TestDatabase) => {
    const started = await startApp({ env: { ...LOCAL, ...env }, database });
    apps.push(started);
    return started;
  };
  afterEach(async () => {
    for (const sut of apps.splice(0)) await sut.close();
    for (const started of receivers.splice(0)) await started.close();
  });

  it('sends pet.created with the pet as the 201 answered it, signed as Standard Webhooks verifies', async () => {
    const sut = await app();
    const hooks = await receiver();
    const { secret } = await register(sut, hooks.url);
    const pet = await create(sut);
    const [delivery] = await until(() => hooks.received, (received) => received.length > 0);
    const verified = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as Record<string, unknown>;
    expect(verified).toEqual({ type: 'pet.created', timestamp: expect.any(String), data: pet });
    expect(JSON.parse(delivery.body)).toEqual(verified);
    expect(new Date(verified.timestamp as string).toISOString()).toBe(verified.timestamp);
    expect(Math.abs(Date.parse(verified.timestamp as string) - Date.now())).toBeLessThan(10_000);
    expect(delivery.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{16}_\d+$/);
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(() => new Webhook(generateWebhookSecret()).verify(delivery.body, delivery.headers as Record<string, string>)).toThrow();
    await until(() => query(sut, 'SELECT state FROM webhook_messages'), (rows) => rows[0]?.state === 'delivered');
    expect(sut.rawLogs()).not.toContain(secret);
  });

  it('sends nothing for an idempotent replay, and nothing for a create refused before it was stored', async () => {
    const sut = await app();
    const hooks = await receiver();
    await register(sut, hooks.url);
    await create(sut, 'Once', { 'idempotency-key': 'replayed-create' });
    await create(sut, 'Once', { 'idempotency-key': 'replayed-create' });
    const invalid = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: '{"name":""}' });
    expect(invalid.status).toBe(400);
    await until(() => hooks.received, (received) => received.length === 1);
    await sleep(600);
    expect(hooks.received).toHaveLength(1);
    expect(await query(sut, 'SELECT count(*) AS n FROM webhook_messages')).toEqual([{ n: expect.anything() }]);
    expect(Number((await query(sut, 'SELECT count(*) AS n FROM webhook_messages'))[0].n)).toBe(1);
  });

  it('sends nothing while no endpoint is registered, and only the events after an endpoint was added', async () => {
    const sut = await app();
    await create(sut, 'Before');
    expect(Number((await query(sut, 'SELECT count(*) AS n FROM webhook_messages'))[0].n)).toBe(0);
    const hooks = await receiver();
    await register(sut, hooks.url);
    const after = await create(sut, 'After');
    await until(() => hooks.received, (received) => received.length === 1);
    await sleep(600);
    expect(hooks.received.map(({ body }) => (JSON.parse(body) as { data: Pet }).data)).toEqual([after]);
  });

  it('never gives two messages one webhook-id, not even the first messages of two services with databases of their own', async () => {
    // A receiver deduplicating by webhook-id would otherwise drop the second service's events, or a new database's.
    const hooks = await receiver();
    const [one, other] = [await app(), await app()];
    await register(one, hooks.url);
    await register(other, hooks.url);
    await create(one, 'First here');
    await create(other, 'First there');
    const received = await until(() => hooks.received, (all) => all.length === 2);
    const [first, second] = received.map(({ headers }) => String(headers['webhook-id']));
    expect(first).not.toBe(second);
    // Both are the first message of their outbox: without their endpoints' tags they would be one id.
    expect(first.split('_')[2]).toBe(second.split('_')[2]);
  });

  it('retries on the schedule with the same webhook-id until a 2xx, recording every attempt', async () => {
    const sut = await app({ WEBHOOK_RETRY_SCHEDULE: '0.3,0.3,0.3' });
    const hooks = await receiver((index) => (index < 2 ? 500 : 200));
    const { id } = await register(sut, hooks.url);
    await create(sut);
    await until(() => hooks.received, (received) => received.length === 3);
    expect(new Set(hooks.received.map(({ headers }) => headers['webhook-id'])).size).toBe(1);
    const attempts = await until(
      () => query(sut, `SELECT attempt, outcome, status_code AS "statusCode" FROM webhook_attempts WHERE endpoint_id = ${id} ORDER BY id`),
      (rows) => rows.length === 3,
    );
    expect(attempts.map((row) => ({ ...row, attempt: Number(row.attempt), statusCode: Number(row.statusCode) }))).toEqual([
      { attempt: 1, outcome: 'retrying', statusCode: 500 },
      { attempt: 2, outcome: 'retrying', statusCode: 500 },
      { attempt: 3, outcome: 'delivered', statusCode: 200 },
    ]);
    await sleep(1_000);
    expect(hooks.received).toHaveLength(3);
  });

  it('marks a message failed once the schedule is spent, after 1 + its length attempts', async () => {
    const sut = await app({ WEBHOOK_RETRY_SCHEDULE: '0.2,0.2' });
    const hooks = await receiver(() => 503);
    await register(sut, hooks.url);
    await create(sut);
    const [message] = await until(() => query(sut, 'SELECT state, attempts FROM webhook_messages'), (rows) => rows[0]?.state === 'failed');
    expect(Number(message.attempts)).toBe(3);
    await sleep(800);
    expect(hooks.received).toHaveLength(3);
    const scrape = await sut.app.get(DataSource).query("SELECT outcome FROM webhook_attempts ORDER BY id");
    expect(scrape.map((row: { outcome: string }) => row.outcome)).toEqual(['retrying', 'retrying', 'failed']);
  });

  it('gives a receiver that was down for a while every message once it is back', async () => {
    const sut = await app({ WEBHOOK_RETRY_SCHEDULE: Array(20).fill('0.25').join(',') });
    let down = true;
    const hooks = await receiver(() => (down ? 502 : 200));
    await register(sut, hooks.url);
    const pets = [];
    for (let i = 0; i < 10; i += 1) pets.push(await create(sut, `Pet ${i}`));
    await until(() => hooks.received, (received) => received.length >= 20);
    down = false;
    const delivered = await until(() => deliveredIds(hooks), (ids) => new Set(ids).size === 10);
    const petIds = hooks.received.filter(({ answered }) => answered === 200).map(({ body }) => (JSON.parse(body) as { data: Pet }).data.id);
    expect(new Set(petIds)).toEqual(new Set(pets.map(({ id }) => id)));
    expect(delivered.length).toBe(10);
  });

  it('never lets a slow endpoint delay another endpoint or an API answer', async () => {
    // The slow endpoint never answers and no attempt of its ends before the test does: whatever the fast endpoint and
    // the API get meanwhile, they got while the slow one held every attempt it was given.
    const sut = await app(UNENDING_ATTEMPTS);
    const slow = await receiver(() => 'hang');
    const fast = await receiver();
    await register(sut, slow.url);
    await register(sut, fast.url);
    for (let i = 0; i < 40; i += 1) await create(sut, `Pet ${i}`);
    const listed = await fetch(`${sut.origin}/v1/pets`, { headers: AUTH });
    expect(listed.status).toBe(200);
    await until(() => fast.received, (received) => received.length === 40);
    expect(slow.received.length).toBeGreaterThan(0);
    // Outcomes are recorded in batches after the answers: the fast endpoint's 40, and not one of the slow one's.
    await until(() => query(sut, 'SELECT count(*) AS n FROM webhook_attempts'), ([{ n }]) => Number(n) >= 40);
    expect(await query(sut, 'SELECT DISTINCT outcome FROM webhook_attempts')).toEqual([{ outcome: 'delivered' }]);
  });

  it('logs no attempt of an endpoint removed while that attempt was in flight', async () => {
    const sut = await app(UNENDING_ATTEMPTS);
    const hooks = await receiver(() => 'hang');
    const endpoint = await register(sut, hooks.url);
    const record = jest.spyOn(sut.app.get(WebhookOutbox), 'record');
    await create(sut);
    // In flight: received, not answered, and not to time out during the test.
    await until(() => hooks.received, (received) => received.length === 1);
    // The command's own connection, as `npm run webhooks -- remove` has.
    const command = await new DataSource(sut.app.get(DataSource).options).initialize();
    try {
      await expect(new WebhookEndpointStore(command).remove(endpoint.id)).resolves.toMatchObject({ id: endpoint.id });
    } finally {
      await command.destroy();
    }
    // Cut the attempt: its outcome (an error) reaches the outbox after the removal.
    await hooks.close();
    await until(() => record.mock.calls.length, (calls) => calls > 0);
    expect(record.mock.calls[0][0]).toEqual([expect.objectContaining({ endpointId: endpoint.id, outcome: 'retrying' })]);
    await record.mock.results[0].value;
    expect(Number((await query(sut, `SELECT count(*) AS n FROM webhook_attempts WHERE endpoint_id = ${endpoint.id}`))[0].n)).toBe(0);
    expect(Number((await query(sut, `SELECT count(*) AS n FROM webhook_messages WHERE endpoint_id = ${endpoint.id}`))[0].n)).toBe(0);
  });

  it('holds deliveries to a trickle while the API saturates the event loop, and works through the rest once it does not', async () => {
    // No attempt times out during the test, so what is received is exactly what the dispatcher let out.
    const sut = await app(UNENDING_ATTEMPTS);
    const pressure = jest.spyOn(sut.app.get(ApiPressure), 'sample').mockReturnValue(true);
    // Unanswered attempts stay in flight until their timeout: what is received is what the dispatcher let out at once.
    const hanging = await receiver(() => 'hang');
    await register(sut, hanging.url);
    for (let i = 0; i < 40; i += 1) await create(sut, `Pet ${i}`);
    await until(() => hanging.received, (received) => received.length >= 8);
    await sleep(1_000); // five polls, none of which may add to the eight in flight
    expect(hanging.received).toHaveLength(8);
    const metrics = sut.app.get(Metrics);
    expect(await metrics.registry.getSingleMetricAsString('petstore_webhook_dispatch_yielding')).toMatch(/ 1$/);
    pressure.mockReturnValue(false);
    await until(() => hanging.received, (received) => received.length === 32);
    expect(await metrics.registry.getSingleMetricAsString('petstore_webhook_dispatch_yielding')).toMatch(/ 0$/);
  });

  it('refuses, at delivery, an endpoint whose address is private unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true', async () => {
    const sut = await app({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false', WEBHOOK_RETRY_SCHEDULE: '60' });
    const hooks = await receiver();
    await register(sut, hooks.url);
    await create(sut);
    const [attempt] = await until(() => query(sut, 'SELECT outcome, error FROM webhook_attempts'), (rows) => rows.length === 1);
    // Retried like any failure: the name may resolve elsewhere later.
    expect(attempt).toMatchObject({ outcome: 'retrying', error: expect.stringMatching(/127\.0\.0\.1/) });
    expect(hooks.received).toEqual([]);
  });

  it('refuses, at delivery, an http:// endpoint unless WEBHOOK_ALLOW_INSECURE=true', async () => {
    const sut = await app({ WEBHOOK_ALLOW_INSECURE: 'false', WEBHOOK_RETRY_SCHEDULE: '60' });
    const hooks = await receiver();
    await register(sut, hooks.url);
    await create(sut);
    const [attempt] = await until(() => query(sut, 'SELECT outcome, error FROM webhook_attempts'), (rows) => rows.length === 1);
    expect(attempt).toMatchObject({ outcome: 'retrying', error: expect.stringMatching(/WEBHOOK_ALLOW_INSECURE/) });
    expect(hooks.received).toEqual([]);
  });

  // PostgreSQL: two apps sharing a SQLite file inside one process share its thread pool too, and their busy waits for
  // each other's write lock can take every thread (the e2e suite runs instances as processes).
  (TEST_DATABASE === 'postgres' ? it : it.skip)('shares the work between two instances on one database, delivering each message once', async () => {
    const database = await createTestDatabase();
    try {
      const [a, b] = [await app({}, database), await app({}, database)];
      const hooks = await receiver();
      await register(a, hooks.url);
      const pets = await Promise.all(Array.from({ length: 60 }, (_, i) => create(i % 2 ? a : b, `Pet ${i}`)));
      await until(() => hooks.received, (received) => received.length >= 60);
      await sleep(1_000);
      const ids = deliveredIds(hooks);
      expect(ids).toHaveLength(60);
      expect(new Set(ids).size).toBe(60);
      const petIds = hooks.received.map(({ body }) => (JSON.parse(body) as { data: Pet }).data.id);
      expect(new Set(petIds)).toEqual(new Set(pets.map(({ id }) => id)));
    } finally {
      for (const sut of apps.splice(0)) await sut.close();
      await database.drop();
    }
  });

  it('has a stopping instance release what it could not deliver, for the next one to deliver at once', async () => {
    const database = await createTestDatabase();
    try {
      let answer: number | 'hang' = 'hang';
      const hooks = await receiver(() => answer);
      // A lease (WEBHOOK_TIMEOUT_MS + 20 s) longer than the test may last: a delivery within the test was released.
      const env = { ...LOCAL, ...UNENDING_ATTEMPTS };
      const first = await startApp({ env, database });
      await register(first, hooks.url);
      await create(first);
      await until(() => hooks.received, (received) => received.length === 1);
      await first.close();
      answer = 204;
      const next = await app(env, database);
      await until(() => deliveredIds(hooks), (ids) => ids.length === 1);
      expect(hooks.received.map(({ headers }) => headers['webhook-id'])).toEqual([hooks.received[0].headers['webhook-id'], hooks.received[0].headers['webhook-id']]);
      await next.close();
      apps.splice(0);
    } finally {
      await database.drop();
    }
  });

  it('applies a late outcome only to a message still held under the lease it was attempted under', async () => {
    const sut = await app();
    const pet = await create(sut);
    // An endpoint id that no endpoint has: this app's dispatcher leaves the message to the test.
    await query(sut, `INSERT INTO webhook_messages (endpoint_id, event_type, pet_id, created_at, next_attempt_at) VALUES (999, 'pet.created', ${pet.id}, 0, 0)`);
    const outbox = sut.app.get(WebhookOutbox);
    const [first] = await outbox.claim(999, 1_000, 2_000, 10);
    expect(first).toMatchObject({ pet, attempts: 0, leaseUntil: 2_000 });
    expect(await outbox.claim(999, 1_500, 2_500, 10)).toEqual([]);
    // Its lease ran out: another instance claims it again.
    const [again] = await outbox.claim(999, 2_000, 3_000, 10);
    expect(again.id).toBe(first.id);
    const outcome = (claim: ClaimedMessage): AttemptRecord => ({
      messageId: claim.id, endpointId: 999, attempt: 1, attemptedAt: 2_500, outcome: 'delivered', statusCode: 204, error: null, durationMs: 1, nextAttemptAt: null, leaseUntil: claim.leaseUntil,
    });
    const state = async () => (await query(sut, 'SELECT state, locked_until AS "lockedUntil" FROM webhook_messages WHERE endpoint_id = 999'))[0];
    await outbox.record([outcome(first)]);
    expect(await state()).toEqual({ state: 'pending', lockedUntil: expect.anything() });
    expect(Number((await state()).lockedUntil)).toBe(3_000);
    await outbox.record([outcome(again)]);
    expect(await state()).toEqual({ state: 'delivered', lockedUntil: null });
    expect(Number((await query(sut, 'SELECT count(*) AS n FROM webhook_attempts WHERE endpoint_id = 999'))[0].n)).toBe(2);
  });

  it('purges finished messages and attempts older than the cut-off, and never a pending message', async () => {
    const sut = await app();
    const pet = await create(sut);
    const message = (state: string, finishedAt: number | null) =>
      query(sut, `INSERT INTO webhook_messages (endpoint_id, event_type, pet_id, created_at, next_attempt_at, state, finished_at)
                  VALUES (998, 'pet.created', ${pet.id}, 0, 0, '${state}', ${finishedAt})`);
    await message('delivered', 1_000);
    await message('failed', 1_000);
    await message('delivered', 5_000);
    await message('pending', null);
    await query(sut, `INSERT INTO webhook_attempts (endpoint_id, message_id, attempt, attempted_at, outcome, duration_ms) VALUES (998, 1, 1, 1000, 'delivered', 1)`);
    await query(sut, `INSERT INTO webhook_attempts (endpoint_id, message_id, attempt, attempted_at, outcome, duration_ms) VALUES (998, 1, 1, 5000, 'delivered', 1)`);
    await sut.app.get(WebhookOutbox).purge(2_000);
    const left = await query(sut, 'SELECT state FROM webhook_messages WHERE endpoint_id = 998 ORDER BY id');
    expect(left.map(({ state }) => state)).toEqual(['delivered', 'pending']);
    expect(Number((await query(sut, 'SELECT count(*) AS n FROM webhook_attempts WHERE endpoint_id = 998'))[0].n)).toBe(1);
  });

  it('keeps finished messages 7 days: the purge takes those finished longer ago, and leaves the others', async () => {
    const sut = await app();
    const pet = await create(sut);
    const now = Date.now();
    const DAY_MS = 24 * 60 * 60 * 1000;
    for (const finishedAt of [now - 7 * DAY_MS - 60_000, now - 7 * DAY_MS + 60_000]) {
      await query(sut, `INSERT INTO webhook_messages (endpoint_id, event_type, pet_id, created_at, next_attempt_at, state, finished_at)
                        VALUES (997, 'pet.created', ${pet.id}, 0, 0, 'delivered', ${finishedAt})`);
    }
    await sut.app.get(WebhookOutboxPurge).runOnce(now);
    const left = await query(sut, 'SELECT finished_at AS "finishedAt" FROM webhook_messages WHERE endpoint_id = 997');
    expect(left.map(({ finishedAt }) => Number(finishedAt))).toEqual([now - 7 * DAY_MS + 60_000]);
  });

  it('exports attempts, deliveries, the outbox depth and the age of its oldest message', async () => {
    const sut = await app({ WEBHOOK_RETRY_SCHEDULE: '30' });
    const hooks = await receiver(() => 500);
    await register(sut, hooks.url);
    await create(sut);
    await until(() => hooks.received, (received) => received.length === 1);
    const metrics = sut.app.get((await import('../src/app/metrics/metrics')).Metrics);
    const text = await until(() => metrics.registry.metrics(), (body) => /petstore_webhook_attempts_total\{outcome="retrying"\} 1/.test(body));
    expect(text).toMatch(/petstore_webhook_outbox_messages 1\n/);
    expect(text).toMatch(/petstore_webhook_outbox_oldest_age_seconds \d/);
    expect(text).toMatch(/petstore_webhook_deliveries_total\{outcome="delivered"\} 0/);
    expect(text).toMatch(/petstore_webhook_attempt_duration_seconds_count 1/);
  });
});
