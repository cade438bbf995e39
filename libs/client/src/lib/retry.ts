import { AbortError, parseRetryAfterMs } from './errors';

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

export const isRetryableStatus = (status: number) => RETRYABLE_STATUSES.has(status);

/** A 409 `idempotency_key_in_use`: an earlier attempt of this create is still running, and will soon be answered. */
export function isStillRunning({ status, text }: { status: number; text: string }): boolean {
  if (status !== 409) return false;
  try {
    return (JSON.parse(text) as { code?: unknown }).code === 'idempotency_key_in_use';
  } catch {
    return false;
  }
}

/** Base of the exponential backoff; attempt n waits up to BASE * 2^n. */
const BACKOFF_BASE_MS = 250;

/**
 * How long to wait before retry number `attempt` (0-based): the service's `Retry-After` when it gave one,
 * otherwise exponential backoff with full jitter, so that many clients do not retry in step. Always capped.
 */
export function retryDelayMs(attempt: number, retryAfter: string | null, capMs: number, random = Math.random): number {
  const asked = parseRetryAfterMs(retryAfter, Date.now());
  const delay = asked > 0 ? asked : random() * BACKOFF_BASE_MS * 2 ** attempt;
  return Math.min(capMs, delay);
}

/** Waits `ms`; rejects with an AbortError as soon as `signal` aborts, so that a cancelled call does not wait out its backoff. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError({ cause: signal.reason }));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts only once; `once` only frees the listener.
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
