import { setTimeout as sleep } from 'node:timers/promises';

/** One request of an open-loop run: when it was sent (ms since the run began), how long its answer took, and what. */
export interface Sample<T> {
  sentAt: number;
  ms: number;
  /** The HTTP status, or 0 when no answer came (the request's own deadline, a reset). */
  status: number;
  detail: T | undefined;
}

/**
 * Offers requests at a fixed rate whatever the answers do (an open loop: a slow answer never slows the offer, as
 * clients in production do not wait for each other), until `until()` says stop. Times are read from the run's start.
 */
export async function offerAtRate<T>(
  perSecond: number,
  until: (elapsedMs: number) => boolean,
  send: (index: number) => Promise<{ status: number; detail?: T }>,
): Promise<Array<Sample<T>>> {
  const started = performance.now();
  const answers: Array<Promise<Sample<T>>> = [];
  for (let index = 0; !until(performance.now() - started); index += 1) {
    const sentAt = performance.now() - started;
    answers.push(
      send(index).then(
        ({ status, detail }) => ({ sentAt, ms: performance.now() - started - sentAt, status, detail }),
        () => ({ sentAt, ms: performance.now() - started - sentAt, status: 0, detail: undefined }),
      ),
    );
    // Paced against the run's clock, so that a late timer is made up rather than lowering the rate.
    await sleep(Math.max(0, ((index + 1) * 1000) / perSecond - (performance.now() - started)));
  }
  return Promise.all(answers);
}

/** The q-quantile (0..1) of some durations, by the nearest rank. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
