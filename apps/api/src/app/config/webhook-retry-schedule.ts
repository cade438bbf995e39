// WEBHOOK_RETRY_SCHEDULE's default and parser, a plain list of seconds: config imports nothing of webhooks/, which
// decides what the list means for a message.

/**
 * The delays, in seconds, before each retry after the first, immediate attempt: Standard Webhooks' example schedule.
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md#deliverability-and-reliability
 */
export const STANDARD_RETRY_SCHEDULE_SECONDS: readonly number[] = Object.freeze([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);

// Plain decimal seconds: no sign, exponent, hexadecimal or `Infinity`, which Number() would all accept.
const SECONDS = /^\d+(?:\.\d+)?$/;

/**
 * Reads a comma-separated list of delays in seconds; the empty text means no retries.
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
