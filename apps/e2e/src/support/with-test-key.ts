import { TEST_KEY } from './test-key';

/**
 * A request to the service under test with the test key, as a caller with a key sends it; given up after a generous
 * minute, so that a peer gone silent fails the test with this request's error instead of hanging it.
 */
export const withTestKey = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Response> =>
  fetch(url, { ...init, signal: AbortSignal.timeout(60_000), headers: { authorization: `Bearer ${TEST_KEY}`, ...init.headers } });

/** POST /v1/pets at `origin` with the test key. */
export const postPet = (origin: string, pet: { name: string; categoryId: number; status?: string }): Promise<Response> =>
  withTestKey(`${origin}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pet) });
