import { Logger } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import { getMaxListeners } from 'node:events';
import { PetStatus } from '@petstore/contract';
import type { AppConfig } from '../config/app-config';
import type { DatabaseConnection } from '../database/database-connection';
import type { Metrics } from '../metrics/metrics';
import type { ApiPressure } from './api-pressure';
import type { ClaimedMessage, DispatchEndpoint, WebhookOutbox } from './outbox/webhook-outbox';
import { attemptDelivery } from './webhook-attempt';
import type { WebhookAttemptRecorder } from './webhook-attempt-recorder';
import { WebhookDispatcher } from './webhook-dispatcher';
import type { DeliveryResult } from './webhook-sender';

jest.mock('./webhook-attempt');

/** An attempt the test ends when it likes, as a receiver would; with the signal the dispatcher gave it. */
interface HeldAttempt {
  messageId: number;
  signal: AbortSignal;
  end: () => void;
}

const DELIVERED: DeliveryResult = { outcome: 'delivered', statusCode: 204, error: null, durationMs: 3 };
const CANCELLED: DeliveryResult = { outcome: 'failed', statusCode: null, error: 'The operation was aborted', durationMs: 1_000 };
const ENDPOINT: DispatchEndpoint = { id: 1, url: 'https://hooks.example.com/a', secret: 'whsec_x', messageTag: '4f1c2a9e8b7d6035' };
const TIMEOUT_MS = 1_000;

/** Lets every promise the dispatcher chained settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

// docs/operations.md, "Webhooks": each endpoint's attempts in flight per instance (32, 8 while the API saturates the
// event loop), claims under a lease of the attempt's deadline plus 20 s, a backlog claimed again at half the room, and
// at shutdown a second for attempts in flight before what was not recorded is released.
describe(WebhookDispatcher.name, () => {
  let attempts: HeldAttempt[];
  let due: number[];
  let nextId: number;
  let pressure: { sample: jest.Mock<boolean, []> };
  let database: { serving: boolean; run: jest.Mock };
  let outbox: { endpoints: jest.Mock; claim: jest.Mock; release: jest.Mock };
  let recorder: { record: jest.Mock };
  let warnings: jest.SpyInstance;
  let sut: WebhookDispatcher;

  const message = (id: number): ClaimedMessage => ({
    id,
    endpointId: ENDPOINT.id,
    eventType: 'pet.created',
    createdAt: 0,
    attempts: 0,
    leaseUntil: 0,
    pet: { id, name: 'Rex', categoryId: 1, status: PetStatus.Available },
  });
  /** `count` more messages due at the endpoint. */
  const enqueue = (count: number) => due.push(...Array.from({ length: count }, () => (nextId += 1)));
  const endAttempts = async (count: number) => {
    for (const attempt of attempts.splice(0, count)) attempt.end();
    await settle();
  };
  const limits = () => outbox.claim.mock.calls.map(([, , , limit]) => limit as number);

  beforeEach(() => {
    attempts = [];
    due = [];
    nextId = 0;
    pressure = { sample: jest.fn(() => false) };
    database = { serving: true, run: jest.fn((operation: () => Promise<unknown>) => operation()) };
    outbox = {
      endpoints: jest.fn(async () => [ENDPOINT]),
      claim: jest.fn(async (_endpointId: number, _now: number, _leaseUntil: number, limit: number) => due.splice(0, limit).map(message)),
      release: jest.fn(async () => undefined),
    };
    recorder = { record: jest.fn(async () => undefined) };
    // Like the real attempt, one that is cancelled ends at once, as a failure to send.
    jest.mocked(attemptDelivery).mockImplementation(
      (_endpoint, claimed, _attemptedAt, _config, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => resolve(CANCELLED));
          attempts.push({ messageId: claimed.id, signal, end: () => resolve(DELIVERED) });
        }),
    );
    warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    sut = new WebhookDispatcher(
      { get: () => ({ timeoutMs: TIMEOUT_MS }) } as unknown as ConfigService<AppConfig, true>,
      outbox as unknown as WebhookOutbox,
      database as unknown as DatabaseConnection,
      { gauge: () => undefined } as unknown as Metrics,
      pressure as unknown as ApiPressure,
      recorder as unknown as WebhookAttemptRecorder,
    );
  });
  afterEach(async () => {
    await endAttempts(attempts.length);
    await sut.beforeApplicationShutdown();
    jest.restoreAllMocks();
  });

  it('does not look at the outbox while the database is not serving, and does again once it is', async () => {
    database.serving = false;
    await sut.poll();
    await sut.poll();
    expect(outbox.endpoints).not.toHaveBeenCalled();

    database.serving = true;
    await sut.poll();
    expect(outbox.endpoints).toHaveBeenCalledTimes(1);
  });

  it('claims up to 32 of an endpoint’s messages, through the connection, under a lease of the deadline plus 20 s', async () => {
    enqueue(40);
    const before = Date.now();
    await sut.poll();
    const [[endpointId, now, leaseUntil, limit]] = outbox.claim.mock.calls;
    expect({ endpointId, limit, lease: leaseUntil - now }).toEqual({ endpointId: 1, limit: 32, lease: TIMEOUT_MS + 20_000 });
    expect(now).toBeGreaterThanOrEqual(before);
    expect(database.run).toHaveBeenCalledTimes(2);
    expect(attempts.map((attempt) => attempt.messageId)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(getMaxListeners(attempts[0].signal)).toBe(0);
  });

  it('claims no more while the endpoint’s room is full, and only the room that attempts ending left', async () => {
    enqueue(33);
    await sut.poll();
    await sut.poll();
    expect(limits()).toEqual([32]);
    // The claim came back short of its room: no backlog, so ending attempts claims nothing before the next poll.
    due.length = 0;
    enqueue(3);
    await endAttempts(3);
    expect(limits()).toEqual([32]);
    await sut.poll();
    expect(limits()).toEqual([32, 3]);
  });

  it('claims a backlog again as soon as half the endpoint’s room is free, not at the next poll, until a claim comes back short', async () => {
    enqueue(40);
    await sut.poll();
    await endAttempts(15);
    expect(limits()).toEqual([32]);
    await endAttempts(1);
    expect(limits()).toEqual([32, 16]);
    // That claim found 8: the backlog is worked through, and more messages wait for the next poll.
    enqueue(50);
    await endAttempts(24);
    expect(limits()).toEqual([32, 16]);
    await sut.poll();
    expect(limits()).toEqual([32, 16, 32]);
  });

  it('holds each endpoint to 8 attempts while the API saturates the event loop, and claims a backlog only at polls', async () => {
    pressure.sample.mockReturnValue(true);
    enqueue(100);
    const claimed = new Promise<void>((resolve) => outbox.claim.mockImplementationOnce(async (...args) => (resolve(), due.splice(0, args[3]).map(message))));
    sut.onApplicationBootstrap();
    await claimed;
    await settle();
    expect(limits()).toEqual([8]);
    await endAttempts(8);
    expect(limits()).toEqual([8]);
  });

  it('polls once more when asked during a poll, without running two at once', async () => {
    let release!: () => void;
    outbox.endpoints.mockImplementationOnce(() => new Promise((resolve) => (release = () => resolve([]))));
    const first = sut.poll();
    const second = sut.poll();
    expect(outbox.endpoints).toHaveBeenCalledTimes(1);
    release();
    await Promise.all([first, second]);
    expect(outbox.endpoints).toHaveBeenCalledTimes(2);
    await sut.poll();
    expect(outbox.endpoints).toHaveBeenCalledTimes(3);
  });

  it('says once a minute why the outbox was not polled, and why an attempt was not recorded', async () => {
    outbox.endpoints.mockRejectedValueOnce(new Error('database away'));
    await sut.poll();
    expect(warnings.mock.calls).toEqual([['Webhook outbox not polled: database away']]);

    warnings.mockClear();
    jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 60_000);
    recorder.record.mockRejectedValueOnce(new Error('disk full'));
    enqueue(1);
    await sut.poll();
    await endAttempts(1);
    expect(warnings.mock.calls).toEqual([['Webhook attempt of msg_4f1c2a9e8b7d6035_1 not recorded: disk full']]);
  });

  it('records each attempt’s outcome, and forgets the attempts that ended', async () => {
    enqueue(2);
    await sut.poll();
    await endAttempts(2);
    expect(recorder.record.mock.calls.map(([endpoint, claimed, , result]) => [endpoint.id, claimed.id, result])).toEqual([
      [1, 1, DELIVERED],
      [1, 2, DELIVERED],
    ]);
    expect((sut as unknown as { attempts: Set<unknown> }).attempts.size).toBe(0);
  });

  describe('at shutdown', () => {
    it('releases nothing when every claimed message was recorded, and polls no more', async () => {
      jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
      sut.onApplicationBootstrap();
      enqueue(2);
      await sut.poll();
      await endAttempts(2);
      await sut.beforeApplicationShutdown();
      expect(outbox.release).not.toHaveBeenCalled();
      const sampled = pressure.sample.mock.calls.length;
      await sut.poll();
      // A minute of the dispatcher's clock: a poll still scheduled would have sampled the API's pressure by then.
      await jest.advanceTimersByTimeAsync(60_000);
      jest.useRealTimers();
      expect(outbox.endpoints).toHaveBeenCalledTimes(1);
      expect(pressure.sample).toHaveBeenCalledTimes(sampled);
    });

    it('lets attempts in flight finish and be recorded within a second', async () => {
      enqueue(2);
      await sut.poll();
      const stopped = sut.beforeApplicationShutdown();
      await settle();
      await endAttempts(2);
      await stopped;
      expect(recorder.record).toHaveBeenCalledTimes(2);
      expect(outbox.release).not.toHaveBeenCalled();
    });

    it('cancels what is still in flight after that second, records none of it, and releases it and what was not recorded', async () => {
      enqueue(3);
      recorder.record.mockRejectedValueOnce(new Error('disk full'));
      await sut.poll();
      await endAttempts(1);
      const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
      const before = timers();
      const stopped = sut.beforeApplicationShutdown();
      await settle();
      // Its second keeps no process alive that has nothing else to do.
      expect(timers()).toBe(before);
      await stopped;
      expect(attempts.map((attempt) => attempt.signal.aborted)).toEqual([true, true]);
      await endAttempts(2);
      expect(recorder.record).toHaveBeenCalledTimes(1);
      expect(outbox.release.mock.calls).toEqual([[[1, 2, 3]]]);
      expect(database.run).toHaveBeenLastCalledWith(expect.any(Function));
    });

    it('releases, unattempted, what a claim under way when it began brought back', async () => {
      enqueue(2);
      let answer!: () => void;
      outbox.claim.mockImplementationOnce((_e, _n, _l, limit: number) => new Promise((resolve) => (answer = () => resolve(due.splice(0, limit).map(message)))));
      const polled = sut.poll();
      await settle();
      const stopped = sut.beforeApplicationShutdown();
      answer();
      await Promise.all([polled, stopped]);
      expect(attemptDelivery).not.toHaveBeenCalled();
      expect(outbox.release.mock.calls).toEqual([[[1, 2]]]);
    });
  });
});
