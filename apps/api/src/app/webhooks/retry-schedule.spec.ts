import { STANDARD_RETRY_SCHEDULE_SECONDS } from '../config/webhook-retry-schedule';
import { nextAttemptDelayMs } from './retry-schedule';

describe(nextAttemptDelayMs.name, () => {
  it('gives the delay after each failed attempt, then undefined once the schedule is spent', () => {
    const schedule = [0.2, 1.1, 300];
    expect([1, 2, 3, 4].map((attemptsMade) => nextAttemptDelayMs(schedule, attemptsMade))).toEqual([200, 1100, 300_000, undefined]);
  });

  it('gives no retry at all with an empty schedule', () => {
    expect(nextAttemptDelayMs([], 1)).toBeUndefined();
  });

  it('follows the standard schedule: 5 s after the first attempt, a day after the ninth, none after the tenth', () => {
    expect(nextAttemptDelayMs(STANDARD_RETRY_SCHEDULE_SECONDS, 1)).toBe(5000);
    expect(nextAttemptDelayMs(STANDARD_RETRY_SCHEDULE_SECONDS, 9)).toBe(86_400_000);
    expect(nextAttemptDelayMs(STANDARD_RETRY_SCHEDULE_SECONDS, 10)).toBeUndefined();
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses %p attempts made', (attemptsMade) => {
    expect(() => nextAttemptDelayMs([5], attemptsMade)).toThrow(RangeError);
  });
});
