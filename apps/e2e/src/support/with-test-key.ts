import { TEST_KEY } from './test-key';

/** A request to the service under test with the test key, as a caller with a key sends it. */
export const withTestKey = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Response> =>
  fetch(url, { ...init, headers: { authorization: `Bearer ${TEST_KEY}`, ...init.headers } });

/** POST /v1/pets at `origin` with the test key. */
export const postPet = (origin: string, pet: { name: string; categoryId: number }): Promise<Response> =>
  withTestKey(`${origin}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pet) });

/**
 * A GET with the test key, as a client that honours Retry-After sends it: a 503 that says when to retry (the service's
 * "database not reachable", or HAProxy's "no instance is ready") is sent again after that many seconds, until
 * `deadlineMs` passes (generous: a stack stuck for good, not a verdict on speed). A machine under load may answer so
 * for a moment, as the service promises a caller; each such answer is printed. Any other answer is returned at once.
 */
export async function getHonouringRetryAfter(url: string, deadlineMs = 60_000): Promise<Response> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const response = await withTestKey(url);
    const retryAfter = Number(response.headers.get('retry-after'));
    if (response.status !== 503 || !(retryAfter > 0) || Date.now() > deadline) return response;
    console.log(`GET ${url}: 503 ${await response.text()}; retried after ${retryAfter} s`);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
  }
}
