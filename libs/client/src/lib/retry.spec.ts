import { parseRetryAfterMs } from './errors';
import { AbortError } from './errors';
import { isRetryableStatus, isStillRunning, retryDelayMs, sleep } from './retry';

describe('retry rules', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries %i', (status) => expect(isRetryableStatus(status)).toBe(true));
  it.each([200, 400, 401, 404, 409, 413, 415, 422, 501])('does not retry %i', (status) => expect(isRetryableStatus(status)).toBe(false));

  it('grows the backoff ceiling exponentially and draws below it', () => {
    expect([0, 1, 2, 3].map((attempt) => retryDelayMs(attempt, null, 60_000, () => 1))).toEqual([250, 500, 1000, 2000]);
    expect(retryDelayMs(3, null, 60_000, () => 0.5)).toBe(1000);
    expect(retryDelayMs(20, null, 5_000, () => 1)).toBe(5_000);
  });

  it('prefers Retry-After, capped', () => {
    expect(retryDelayMs(0, '2', 60_000, () => 1)).toBe(2_000);
    expect(retryDelayMs(0, '120', 30_000, () => 1)).toBe(30_000);
  });

  it('reads Retry-After as seconds or an HTTP-date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs('5', now)).toBe(5_000);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBe(0);
    expect(parseRetryAfterMs(' 5 ', now)).toBe(5_000);
    expect(parseRetryAfterMs('x5', now)).toBe(0);
    expect(parseRetryAfterMs('5x', now)).toBe(0);
    expect(parseRetryAfterMs(null, now)).toBe(0);
  });

  it('waits out a 409 only when it says the same key is still in use', () => {
    const inUse = JSON.stringify({ code: 'idempotency_key_in_use', message: 'Still running.', status: 409 });
    expect(isStillRunning({ status: 409, text: inUse })).toBe(true);
    expect(isStillRunning({ status: 503, text: inUse })).toBe(false);
    expect(isStillRunning({ status: 409, text: JSON.stringify({ code: 'conflict' }) })).toBe(false);
    expect(isStillRunning({ status: 409, text: '<html>Conflict</html>' })).toBe(false);
  });

  it('sleeps until aborted, rejecting with the reason as the cause', async () => {
    const reason = new Error('the user left');
    await expect(sleep(10, AbortSignal.abort(reason))).rejects.toMatchObject({ name: 'AbortError', cause: reason });
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(reason);
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ cause: reason });
  });
});
