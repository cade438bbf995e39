import { ConnectionError, PetstoreClient, TimeoutError } from '@petstore/client';
import { describeError } from './describe-error';

/** The error the client throws for this answer of the service. */
async function errorFor(status: number, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const fetch = async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  const client = new PetstoreClient({ baseUrl: 'http://petstore.test/v1', apiKey: 'pk_test_key_0123456789', fetch, maxRetries: 0 });
  return client.listPets().catch((error: unknown) => error);
}

describe(describeError.name, () => {
  it.each([
    [400, 'validation_failed', 'Invalid request body: name is required.', 'Invalid request body: name is required.'],
    [401, 'unauthorized', 'Missing or invalid API key.', 'The API key was refused: Missing or invalid API key.'],
    [403, 'forbidden', 'This key lacks pets:write.', 'This API key may not do that: This key lacks pets:write.'],
    [413, 'payload_too_large', 'The body is larger than 16 KiB.', 'The body is larger than 16 KiB.'],
    [503, 'service_unavailable', 'Retry shortly.', 'Retry shortly.'],
  ])("says a %d in the service's words", async (status, code, message, said) => {
    expect(describeError(await errorFor(status, { code, message, status }))).toBe(said);
  });

  it('says when to try again after a 429', async () => {
    const body = { code: 'rate_limited', message: 'Too many requests.', status: 429 };
    expect(describeError(await errorFor(429, body, { 'retry-after': '1' }))).toBe('Too many requests. Try again in 1 second.');
    expect(describeError(await errorFor(429, body))).toBe('Too many requests. Try again shortly.');
  });

  it('never shows a stack or an internal message', () => {
    expect(describeError(new ConnectionError('socket hang up'))).toBe('The API could not be reached. Check its address and your connection.');
    expect(describeError(new TimeoutError(10_000))).toBe('The API did not answer in time. Try again.');
    expect(describeError(new Error('at Object.<anonymous> (main.js:1:1)'))).toBe('Something went wrong. Try again.');
  });
});
