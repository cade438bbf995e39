import type { Pet } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { WebhookAttemptEntity } from '../src/app/webhooks/webhook-attempt.entity';
import { WebhookEndpointStore } from '../src/app/webhooks/webhook-endpoint.store';
import { JSON_AUTH, startApp, type TestApp } from './support/test-app';
import { until } from './support/until';

// Endpoints registered into the database (as `npm run webhooks -- add` does) and the outbox rows the pets trigger
// writes for them, on the running service's database.
describe(WebhookEndpointStore.name, () => {
  let sut: TestApp;
  let dataSource: DataSource;
  let store: WebhookEndpointStore;
  // A host that resolves nowhere: nothing here is to be delivered.
  const url = (path: string) => `https://hooks.petstore.invalid/${path}`;

  const createPet = async (name = 'Rex'): Promise<Pet> => {
    const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name, categoryId: 1 }) });
    expect(response.status).toBe(201);
    return (await response.json()) as Pet;
  };
  /** How many messages each endpoint has for a pet: endpoint id -> count. */
  const messagesFor = async (petId: number): Promise<Record<number, number>> => {
    const rows = (await dataSource.query(
      `SELECT endpoint_id, COUNT(*) AS n FROM webhook_messages WHERE pet_id = ${Number(petId)} GROUP BY endpoint_id`,
    )) as Array<{ endpoint_id: number | string; n: number | string }>;
    return Object.fromEntries(rows.map((row) => [Number(row.endpoint_id), Number(row.n)]));
  };
  const countWhere = async (table: 'webhook_messages' | 'webhook_attempts', endpointId: number) => {
    const [{ n }] = (await dataSource.query(`SELECT COUNT(*) AS n FROM ${table} WHERE endpoint_id = ${Number(endpointId)}`)) as Array<{ n: number | string }>;
    return Number(n);
  };
  const attempt = async (fields: Partial<WebhookAttemptEntity> & Pick<WebhookAttemptEntity, 'endpointId'>): Promise<WebhookAttemptEntity> => {
    const record: Omit<WebhookAttemptEntity, 'id'> = {
      messageId: 1,
      attempt: 1,
      attemptedAt: Date.now(),
      outcome: 'retrying',
      statusCode: 500,
      error: 'HTTP 500',
      durationMs: 12,
      ...fields,
    };
    const result = await dataSource.manager.insert(WebhookAttemptEntity, record);
    return { ...record, id: Number(result.identifiers[0].id) };
  };

  beforeAll(async () => {
    sut = await startApp();
    // A connection of its own, as `npm run webhooks` has in its own process: on SQLite the service's one writing
    // connection runs its own transactions (the group commit's, the outbox's), which another's must not interleave with.
    dataSource = await new DataSource(sut.app.get(DataSource).options).initialize();
    store = new WebhookEndpointStore(dataSource);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await sut.close();
  });

  describe('add', () => {
    it('stores the endpoint with its events, a new secret (whsec_ and the base64 of 32 random bytes) and a new message tag', async () => {
      const before = Date.now();
      const record = await store.add(url('add'), ['pet.created']);
      expect(record).toEqual({
        id: expect.any(Number),
        url: url('add'),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        events: ['pet.created'],
        messageTag: expect.stringMatching(/^[0-9a-f]{16}$/),
        createdAt: expect.any(Number),
      });
      expect(Buffer.from(record.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
      expect(record.createdAt).toBeGreaterThanOrEqual(before);
      const [row] = (await dataSource.query(`SELECT url, secret, events, message_tag, created_at FROM webhook_endpoints WHERE id = ${record.id}`)) as Array<Record<string, unknown>>;
      expect({ ...row, created_at: Number(row.created_at) }).toEqual({
        url: url('add'),
        secret: record.secret,
        events: 'pet.created',
        message_tag: record.messageTag,
        created_at: record.createdAt,
      });
      const again = await store.add(url('add'), ['pet.created']);
      expect(again.secret).not.toBe(record.secret);
      expect(again.messageTag).not.toBe(record.messageTag);
    });
  });

  describe('list', () => {
    it('gives every endpoint ordered by id, as stored', async () => {
      const added = [await store.add(url('list-1'), ['pet.created'], 1_000), await store.add(url('list-2'), ['pet.created'], 2_000)];
      const listed = await store.list();
      expect(listed.map(({ id }) => id)).toEqual([...listed.map(({ id }) => id)].sort((a, b) => a - b));
      expect(listed.slice(-2)).toEqual(added);
    });
  });

  describe('the outbox trigger', () => {
    it('leaves one message per subscribed endpoint for a pet created after add, none for a pet created before', async () => {
      const before = await createPet('before');
      const subscribed = await store.add(url('trigger'), ['pet.created']);
      const unsubscribed = await store.add(url('nothing'), []);
      const after = await createPet('after');

      expect((await messagesFor(before.id))[subscribed.id]).toBeUndefined();
      const expected = (await store.list()).filter(({ events }) => events.includes('pet.created')).map(({ id }) => [id, 1]);
      expect(expected).toContainEqual([subscribed.id, 1]);
      expect(await messagesFor(after.id)).toEqual(Object.fromEntries(expected));
      expect((await messagesFor(after.id))[unsubscribed.id]).toBeUndefined();
      const [message] = (await dataSource.query(
        `SELECT event_type, state, attempts FROM webhook_messages WHERE pet_id = ${after.id} AND endpoint_id = ${subscribed.id}`,
      )) as Array<Record<string, unknown>>;
      expect({ ...message, attempts: Number(message.attempts) }).toEqual({ event_type: 'pet.created', state: 'pending', attempts: 0 });
      await store.remove(unsubscribed.id);
    });
  });

  describe('remove', () => {
    it('removes the endpoint with its messages and attempts, in one go, and leaves the other endpoints’ rows', async () => {
      const removed = await store.add(url('removed'), ['pet.created']);
      const kept = await store.add(url('kept'), ['pet.created']);
      const pet = await createPet();
      expect(await messagesFor(pet.id)).toMatchObject({ [removed.id]: 1, [kept.id]: 1 });
      await attempt({ endpointId: removed.id });
      await attempt({ endpointId: removed.id, attempt: 2, outcome: 'failed' });
      const keptAttempt = await attempt({ endpointId: kept.id });

      expect(await store.remove(removed.id)).toEqual(removed);
      expect((await store.list()).map(({ id }) => id)).not.toContain(removed.id);
      expect(await countWhere('webhook_messages', removed.id)).toBe(0);
      expect(await countWhere('webhook_attempts', removed.id)).toBe(0);
      expect((await messagesFor(pet.id))[kept.id]).toBe(1);
      expect((await store.deliveries(kept.id))?.attempts.map(({ id }) => id)).toContain(keptAttempt.id);

      const next = await createPet();
      expect((await messagesFor(next.id))[removed.id]).toBeUndefined();
      expect((await messagesFor(next.id))[kept.id]).toBe(1);
      await store.remove(kept.id);
    });

    it('resolves to null when there is no such endpoint', async () => {
      await expect(store.remove(999_999)).resolves.toBeNull();
    });

    it('leaves no message for the removed endpoint when pets are created while it is removed', async () => {
      const removed = await store.add(url('raced'), ['pet.created']);
      // Creates keep coming from four callers until ten have been answered after the removal: the removal certainly
      // lands among them, whatever the machine's speed, rather than before or after a fixed burst.
      let removalDone = false;
      let answeredAfter = 0;
      const caller = async (lane: number) => {
        for (let i = 0; !removalDone || answeredAfter < 10; i += 1) {
          await createPet(`raced-${lane}-${i}`);
          if (removalDone) answeredAfter += 1;
        }
      };
      const callers = Promise.all([0, 1, 2, 3].map(caller));
      await until(() => countWhere('webhook_messages', removed.id), (messages) => messages > 0, 'messages for the endpoint under creates');
      await expect(store.remove(removed.id)).resolves.toMatchObject({ id: removed.id });
      removalDone = true;
      await callers;
      expect(await countWhere('webhook_messages', removed.id)).toBe(0);
    });
  });

  describe('deliveries', () => {
    it('gives the endpoint’s latest attempts, newest first, at most limit (50 by default)', async () => {
      // Subscribed to nothing, so that no pet created meanwhile gives it messages to deliver.
      const endpoint = await store.add(url('deliveries'), []);
      const other = await store.add(url('other'), []);
      const made: WebhookAttemptEntity[] = [];
      for (let i = 1; i <= 55; i += 1) {
        made.push(await attempt({ endpointId: endpoint.id, messageId: 100 + Math.ceil(i / 3), attempt: ((i - 1) % 3) + 1, attemptedAt: 1_000 + i }));
        if (i % 10 === 0) await attempt({ endpointId: other.id });
      }
      const newestFirst = [...made].reverse();

      expect(await store.deliveries(endpoint.id)).toEqual({ endpoint, attempts: newestFirst.slice(0, 50) });
      expect((await store.deliveries(endpoint.id, 3))?.attempts).toEqual(newestFirst.slice(0, 3));
      expect((await store.deliveries(endpoint.id, 1_000))?.attempts).toEqual(newestFirst);
    });

    it('keeps every field of an attempt, the empty ones included', async () => {
      const endpoint = await store.add(url('fields'), []);
      const timedOut = await attempt({ endpointId: endpoint.id, messageId: 7, attempt: 3, outcome: 'failed', statusCode: null, error: 'timeout after 10000 ms', durationMs: 10_001 });
      const delivered = await attempt({ endpointId: endpoint.id, messageId: 8, outcome: 'delivered', statusCode: 204, error: null });
      expect((await store.deliveries(endpoint.id))?.attempts).toEqual([delivered, timedOut]);
    });

    it('gives an empty list for an endpoint never attempted, and null for no such endpoint', async () => {
      const endpoint = await store.add(url('quiet'), []);
      await expect(store.deliveries(endpoint.id)).resolves.toEqual({ endpoint, attempts: [] });
      await expect(store.deliveries(999_999)).resolves.toBeNull();
    });
  });
});
