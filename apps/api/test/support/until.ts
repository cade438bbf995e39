import { setTimeout as sleep } from 'node:timers/promises';
import { Metrics } from '../../src/app/metrics/metrics';
import type { TestApp } from './test-app';

/** Polls `look` every 10 ms until `done` holds, for at most `timeoutMs` (a limit for a stuck test, not a verdict). */
export async function until<T>(look: () => T | Promise<T>, done: (value: T) => boolean, what = 'the condition', timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await look();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last seen: ${JSON.stringify(value).slice(0, 500)})`);
    await sleep(10);
  }
}

/** Polls `condition` until it holds (as `until`). */
export const untilHolds = (condition: () => boolean, what?: string, timeoutMs?: number): Promise<boolean> => until(condition, Boolean, what, timeoutMs);

/** Batches of creates the app has begun to commit, from its own metrics: a create that is one of them is under way. */
export async function batchesBegun(sut: TestApp): Promise<number> {
  const { values } = await sut.app.get(Metrics).groupCommitBatchSize.get();
  return values.find(({ metricName }) => metricName === 'petstore_group_commit_batch_size_count')?.value ?? 0;
}

/** Creates gathered for the app's next batch while one is being committed, from its own metrics. */
export async function createsWaiting(sut: TestApp): Promise<number> {
  const gauge = sut.app.get(Metrics).registry.getSingleMetric('petstore_group_commit_waiting');
  return (await gauge?.get())?.values[0]?.value ?? 0;
}
