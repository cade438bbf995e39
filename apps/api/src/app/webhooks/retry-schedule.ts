/**
 * The delay before the next attempt once `attemptsMade` attempts have failed, or undefined when the schedule is spent
 * and the message has failed for good. `schedule` is WEBHOOK_RETRY_SCHEDULE's seconds (config/webhook-retry-schedule.ts).
 *
 * Deterministic, without the jitter the specification suggests: attempts are spread already by the times their events
 * happened, and an operator (or a test) gets exactly the schedule configured.
 */
export function nextAttemptDelayMs(schedule: readonly number[], attemptsMade: number): number | undefined {
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 1) throw new RangeError(`attemptsMade must be a positive integer, not ${attemptsMade}.`);
  const seconds = schedule[attemptsMade - 1];
  // Rounded: 1.1 s is 1100.0000000000002 ms in binary floating point.
  return seconds === undefined ? undefined : Math.round(seconds * 1000);
}
