import { PetStatus } from '@petstore/contract';
import type { DataSource } from 'typeorm';
import { PostgresWebhookOutbox } from '../../src/app/webhooks/outbox/postgres-webhook-outbox';
import type { AttemptRecord } from '../../src/app/webhooks/outbox/webhook-outbox';
import { connectPostgres } from '../support/postgres-connection';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// The outbox's statements against a real server, on rows written as the trigger and the endpoint store write them.
// The dispatcher's use of them, through HTTP, is test/webhooks.spec.ts's.
describe(PostgresWebhookOutbox.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sut: PostgresWebhookOutbox;

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ dataSource } = await connectPostgres(database));
    sut = new PostgresWebhookOutbox(dataSource);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  beforeEach(() => dataSource.query('TRUNCATE pets, webhook_endpoints, webhook_messages, webhook_attempts RESTART IDENTITY'));

  const addEndpoint = async (url: string, events = 'pet.created') => {
    const [{ id }] = await dataSource.query(
      `INSERT INTO webhook_endpoints (url, secret, events, message_tag, created_at) VALUES ($1, $2, $3, $4, 0) RETURNING id`,
      [url, `whsec_${url}`, events, `tag${url}`],
    );
    return Number(id);
  };
  /** Pets inserted in one statement, as a batch of creates is: the trigger writes a message per pet and endpoint. */
  const addPets = (...names: string[]) =>
    dataSource.query(`INSERT INTO pets (name, category_id, status, name_key) SELECT n, 7, 'available', lower(n) FROM unnest($1::varchar[]) AS n`, [names]);
  /** Sets columns of a message as the test needs them (times, state), since the trigger stamps them with the clock. */
  const setMessage = (id: number, columns: Record<string, number | string | null>) =>
    dataSource.query(`UPDATE webhook_messages SET ${Object.keys(columns).map((column, i) => `${column} = $${i + 2}`).join(', ')} WHERE id = $1`, [id, ...Object.values(columns)]);
  const messages = async () =>
    ((await dataSource.query(
      'SELECT id, state, attempts, next_attempt_at, locked_until, finished_at FROM webhook_messages ORDER BY id',
    )) as Array<Record<string, string | null>>).map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null || k === 'state' ? v : Number(v)])));
  const attemptsLogged = async () =>
    ((await dataSource.query('SELECT message_id, attempt, outcome, status_code, error, duration_ms FROM webhook_attempts ORDER BY id')) as Array<
      Record<string, string | number | null>
    >).map(({ message_id, ...rest }) => ({ messageId: Number(message_id), ...rest }));

  const attempt = (messageId: number, overrides: Partial<AttemptRecord> = {}): AttemptRecord => ({
    messageId,
    endpointId: 1,
    attempt: 1,
    attemptedAt: 5_000,
    outcome: 'delivered',
    statusCode: 204,
    error: null,
    durationMs: 12,
    nextAttemptAt: null,
    leaseUntil: 9_000,
    ...overrides,
  });

  it('lists the endpoints in the order they were registered, ids as numbers', async () => {
    await addEndpoint('https://b.example');
    await addEndpoint('https://a.example', 'pet.created other');
    expect(await sut.endpoints()).toEqual([
      { id: 1, url: 'https://b.example', secret: 'whsec_https://b.example', messageTag: 'taghttps://b.example' },
      { id: 2, url: 'https://a.example', secret: 'whsec_https://a.example', messageTag: 'taghttps://a.example' },
    ]);
  });

  describe('claim', () => {
    it("takes the endpoint's due pending messages, oldest due first then by id, up to the limit, each with its pet", async () => {
      const [one, two] = [await addEndpoint('https://one.example'), await addEndpoint('https://two.example')];
      await addPets('Rex', 'Tom', 'Kit', 'Bo');
      // Messages 1, 3, 5, 7 are endpoint one's (pets 1..4); make pet 2's the earliest due, pet 4's not due yet.
      for (const [id, due] of [[1, 100], [3, 50], [5, 100], [7, 2_000]]) await setMessage(id, { next_attempt_at: due, created_at: id * 10 });

      const claimed = await sut.claim(one, 1_000, 9_000, 2);
      expect(claimed).toEqual([
        { id: 1, endpointId: one, eventType: 'pet.created', createdAt: 10, attempts: 0, leaseUntil: 9_000, pet: { id: 1, name: 'Rex', categoryId: 7, status: PetStatus.Available } },
        { id: 3, endpointId: one, eventType: 'pet.created', createdAt: 30, attempts: 0, leaseUntil: 9_000, pet: { id: 2, name: 'Tom', categoryId: 7, status: PetStatus.Available } },
      ]);
      // The rest of the due ones; the one not due yet, and the other endpoint's, stay.
      expect((await sut.claim(one, 1_000, 9_000, 10)).map(({ id }) => id)).toEqual([5]);
      expect((await messages()).filter(({ locked_until }) => locked_until === 9_000).map(({ id }) => id)).toEqual([1, 3, 5]);
      expect((await sut.claim(two, 1_000_000_000_000_000, 9_000, 10)).map(({ id }) => id)).toEqual([2, 4, 6, 8]);
    });

    it('leaves a message held under a lease until the lease ends, and one no longer pending', async () => {
      const endpoint = await addEndpoint('https://one.example');
      await addPets('Rex', 'Tom');
      await setMessage(1, { next_attempt_at: 0 });
      await setMessage(2, { next_attempt_at: 0, state: 'delivered' });
      expect((await sut.claim(endpoint, 1_000, 5_000, 10)).map(({ id }) => id)).toEqual([1]);
      expect(await sut.claim(endpoint, 4_999, 6_000, 10)).toEqual([]);
      expect((await sut.claim(endpoint, 5_000, 7_000, 10)).map(({ id, leaseUntil }) => [id, leaseUntil])).toEqual([[1, 7_000]]);
    });

    it('skips messages another instance is claiming at that moment instead of waiting for it', async () => {
      const endpoint = await addEndpoint('https://one.example');
      await addPets('Rex', 'Tom', 'Kit');
      await dataSource.query('UPDATE webhook_messages SET next_attempt_at = 0');
      const other = dataSource.createQueryRunner();
      await other.connect();
      try {
        await other.startTransaction();
        await other.query('SELECT id FROM webhook_messages WHERE id = 1 FOR UPDATE');
        expect((await sut.claim(endpoint, 1_000, 5_000, 10)).map(({ id }) => id)).toEqual([2, 3]);
      } finally {
        await other.rollbackTransaction();
        await other.release();
      }
    });
  });

  describe('record', () => {
    beforeEach(async () => {
      await addEndpoint('https://one.example');
      await addPets('Rex', 'Tom', 'Kit');
      await dataSource.query('UPDATE webhook_messages SET next_attempt_at = 100, locked_until = 9000');
    });

    it('applies each outcome to its message held under the same lease, and logs every attempt', async () => {
      await sut.record([
        attempt(1),
        attempt(2, { outcome: 'retrying', attempt: 3, statusCode: 503, error: 'HTTP 503', nextAttemptAt: 65_000, durationMs: 40 }),
        attempt(3, { outcome: 'failed', attempt: 8, statusCode: null, error: 'timed out', durationMs: 15_000 }),
      ]);
      expect(await messages()).toEqual([
        { id: 1, state: 'delivered', attempts: 1, next_attempt_at: 100, locked_until: null, finished_at: 5_000 },
        { id: 2, state: 'pending', attempts: 3, next_attempt_at: 65_000, locked_until: null, finished_at: null },
        { id: 3, state: 'failed', attempts: 8, next_attempt_at: 100, locked_until: null, finished_at: 5_000 },
      ]);
      expect(await attemptsLogged()).toEqual([
        { messageId: 1, attempt: 1, outcome: 'delivered', status_code: 204, error: null, duration_ms: 12 },
        { messageId: 2, attempt: 3, outcome: 'retrying', status_code: 503, error: 'HTTP 503', duration_ms: 40 },
        { messageId: 3, attempt: 8, outcome: 'failed', status_code: null, error: 'timed out', duration_ms: 15_000 },
      ]);
    });

    it('only logs an outcome that comes after its message was claimed again under another lease', async () => {
      await sut.record([attempt(1, { leaseUntil: 8_000 })]);
      expect((await messages())[0]).toEqual({ id: 1, state: 'pending', attempts: 0, next_attempt_at: 100, locked_until: 9_000, finished_at: null });
      expect(await attemptsLogged()).toEqual([expect.objectContaining({ messageId: 1, outcome: 'delivered' })]);
    });

    it('logs nothing for a message removed with its endpoint while it was attempted, and applies the rest', async () => {
      await dataSource.query('DELETE FROM webhook_messages WHERE id = 2');
      await sut.record([attempt(1), attempt(2)]);
      expect(await attemptsLogged()).toEqual([expect.objectContaining({ messageId: 1 })]);
      expect((await messages()).map(({ id, state }) => [id, state])).toEqual([
        [1, 'delivered'],
        [3, 'pending'],
      ]);
    });

    it('rolls back every outcome when logging fails', async () => {
      await expect(sut.record([attempt(1), attempt(2, { error: 'x'.repeat(201) })])).rejects.toThrow(/too long/);
      expect((await messages()).map(({ state, locked_until }) => [state, locked_until])).toEqual(Array(3).fill(['pending', 9_000]));
      expect(await attemptsLogged()).toEqual([]);
    });
  });

  it("gives up this instance's claims on pending messages, and only those named", async () => {
    await addEndpoint('https://one.example');
    await addPets('Rex', 'Tom', 'Kit');
    await dataSource.query('UPDATE webhook_messages SET locked_until = 9000');
    await setMessage(3, { state: 'delivered' });
    await sut.release([1, 3]);
    expect((await messages()).map(({ locked_until }) => locked_until)).toEqual([null, 9_000, 9_000]);
  });

  it('counts the pending messages and tells when the oldest of them happened', async () => {
    expect(await sut.depth()).toEqual({ pending: 0, oldestCreatedAt: null });
    await addEndpoint('https://one.example');
    await addPets('Rex', 'Tom', 'Kit');
    for (const [id, createdAt] of [[1, 300], [2, 200], [3, 100]]) await setMessage(id, { created_at: createdAt });
    await setMessage(3, { state: 'failed' });
    expect(await sut.depth()).toEqual({ pending: 2, oldestCreatedAt: 200 });
  });

  it('forgets messages finished, and attempts made, at or before the given time', async () => {
    await addEndpoint('https://one.example');
    await addPets('Rex', 'Tom', 'Kit');
    await dataSource.query('UPDATE webhook_messages SET locked_until = 9000');
    await sut.record([attempt(1, { attemptedAt: 1_000 }), attempt(2, { attemptedAt: 2_000 }), attempt(3, { attemptedAt: 2_001, outcome: 'retrying', nextAttemptAt: 3_000 })]);
    await sut.purge(2_000);
    expect((await messages()).map(({ id }) => id)).toEqual([3]);
    expect((await attemptsLogged()).map(({ messageId }) => messageId)).toEqual([3]);
  });
});
