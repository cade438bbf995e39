import type Redis from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { ApiException } from '../errors/api-exception';
import { RateLimits } from './rate-limits';

describe(RateLimits.name, () => {
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: ApiException) => ({ status: error.getStatus(), message: error.message, headers: error.headers }),
    );

  describe('in this process (no REDIS_URL)', () => {
    // The per-key window is 1 s of the limiter's clock (Date.now): held still, so that a slow machine cannot start a new one.
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('spends a key’s budget and then answers 429 with when to retry', async () => {
      const sut = new RateLimits(2, 10, undefined, 250);
      expect(sut.perKeyEnabled).toBe(true);
      expect(await sut.consume('key:1')).toEqual({ 'ratelimit-policy': '"default";q=2;w=1', ratelimit: '"default";r=1;t=1' });
      await sut.consume('key:1');
      expect(await refusal(sut.consume('key:1'))).toEqual({
        status: 429,
        message: 'Too many requests for this API key; retry in 1 s.',
        headers: { 'ratelimit-policy': '"default";q=2;w=1', ratelimit: '"default";r=0;t=1', 'retry-after': '1' },
      });
      // Another key's budget is its own.
      expect(await sut.consume('key:2')).toMatchObject({ ratelimit: '"default";r=1;t=1' });
    });

    it('answers an address 429 once its failed authentications spend the minute’s budget', async () => {
      const sut = new RateLimits(10, 2, undefined, 250);
      expect(await sut.recordAuthenticationFailure('192.0.2.1')).toEqual({ 'ratelimit-policy': '"auth-failures";q=2;w=60', ratelimit: '"auth-failures";r=1;t=60' });
      await sut.assertAddressMayAuthenticate('192.0.2.1');
      await sut.recordAuthenticationFailure('192.0.2.1');
      expect(await refusal(sut.assertAddressMayAuthenticate('192.0.2.1'))).toMatchObject({
        status: 429,
        message: 'Too many failed authentications from this address; retry in 60 s.',
      });
      await sut.assertAddressMayAuthenticate('192.0.2.2');
    });

    it('has no budget and no headers with RATE_LIMIT_RPS=0 or AUTH_FAILURES_PER_MINUTE=0', async () => {
      const sut = new RateLimits(0, 0, undefined, 250);
      expect(sut.perKeyEnabled).toBe(false);
      expect(await sut.consume('key:1')).toEqual({});
      expect(await sut.recordAuthenticationFailure('192.0.2.1')).toEqual({});
    });

    it('counts in this process without calling it a miss of Redis, which nobody asked for', async () => {
      const sut = new RateLimits(5, 5, undefined, 250);
      expect(sut.sharedStoreConfigured).toBe(false);
      expect(sut.store).toBe('in_process');
      await sut.consume('key:1');
      await sut.recordAuthenticationFailure('192.0.2.1');
      expect(sut.countedInProcess).toBe(0);
    });
  });

  describe('with REDIS_URL', () => {
    // Only what happens around the connection; counting in a real Redis is test/rate-limit.spec.ts's.
    const fakeRedis = () => ({ on: jest.fn(), disconnect: jest.fn(), ping: jest.fn(async () => 'PONG'), status: 'ready' });

    it('handles the connection’s error events itself, so that ioredis prints no "Unhandled error event"', () => {
      const redis = fakeRedis();
      const sut = new RateLimits(5, 5, redis as unknown as Redis, 250);
      expect(sut.sharedStoreConfigured).toBe(true);
      expect(redis.on).toHaveBeenCalledWith('error', expect.any(Function));
      sut.onApplicationShutdown();
    });

    // The shared counter answers as the test says: a miss (an Error), a 429 (a RateLimiterRes), or counts.
    const sharedAnswers = (...answers: Array<'miss' | '429' | 'counted'>) => {
      const next = [...answers];
      return jest.spyOn(RateLimiterRedis.prototype, 'consume').mockImplementation(async () => {
        const answer = next.shift();
        if (answer === 'miss') throw new Error('Connection is closed.');
        if (answer === '429') throw new RateLimiterRes(0, 1_000, 6, false);
        return new RateLimiterRes(4, 1_000, 1, true);
      });
    };
    afterEach(() => jest.restoreAllMocks());

    it.each([
      ['a count', 'counted'],
      ['a 429', '429'],
    ] as const)('keeps asking Redis when %s comes between misses: only misses in a row stop it', async (_, answer) => {
      const consume = sharedAnswers('miss', 'miss', answer, 'miss', 'miss', 'miss');
      const sut = new RateLimits(5, 5, fakeRedis() as unknown as Redis, 250);
      for (let i = 0; i < 5; i++) await sut.consume('key:1').catch(() => undefined);
      expect(consume).toHaveBeenCalledTimes(5);
      expect(sut.store).toBe('redis');
      // The misses were counted here instead.
      expect(sut.countedInProcess).toBe(4);
      // A third miss in a row stops it.
      await sut.consume('key:1');
      expect(sut.store).toBe('in_process');
      sut.onApplicationShutdown();
    });

    it('drops the connection on shutdown, without waiting for Redis', () => {
      const redis = fakeRedis();
      const sut = new RateLimits(5, 5, redis as unknown as Redis, 250);
      sut.onApplicationShutdown();
      expect(redis.disconnect).toHaveBeenCalledTimes(1);
    });
  });
});
