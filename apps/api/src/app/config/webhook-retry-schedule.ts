// WEBHOOK_RETRY_SCHEDULE's default and parser, a plain list of seconds: config imports nothing of webhooks/, which
// reads the list and decides what it means for a message (webhooks/retry-schedule.ts).

/**
 * The delays, in seconds, before each retry after the first, immediate attempt: the example schedule of Standard
 * Webhooks (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), about three days in all.
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md#deliverability-and-reliability
 */
export const STANDARD_RETRY_SCHEDULE_SECONDS: readonly number[] = Object.freeze([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);

// Plain decimal seconds: no sign, exponent, hexadecimal or `Infinity`, which Number() would all accept.
const SECONDS = /^\d+(?:\.\d+)?$/;

/**
 * Reads a comma-separated list of delays in seconds (e.g. `"0.2, 0.5, 1"`); the empty text means no retries.
 * @example parseRetrySchedule('5,300,1800') // [5, 300, 1800]
 */
export function parseRetrySchedule(text: string): number[] {
  if (text.trim() === '') return [];
  return text.split(',').map((item, index) => {
    const seconds = item.trim();
    if (!SECONDS.test(seconds) || !Number.isFinite(Number(seconds))) {
      throw new Error(`Retry schedule item ${index + 1} (${JSON.stringify(item)}) is not a number of seconds such as 5 or 0.5.`);
    }
    return Number(seconds);
  });
}
