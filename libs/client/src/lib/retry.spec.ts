import { parseRetryAfterMs } from './errors';
import { isRetryableStatus, retryDelayMs } from './retry';

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
    expect(parseRetryAfterMs(null, now)).toBe(0);
  });
});
