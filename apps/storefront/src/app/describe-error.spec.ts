import { ConnectionError, PetstoreClient, TimeoutError } from '@petstore/client';
import { describeError } from './describe-error';

/** The error the client throws for this answer at the page's address. */
async function errorFor(status: number, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const fetch = async () => new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } });
  const client = new PetstoreClient({ baseUrl: 'http://petstore.test/v1', apiKey: 'pk_test_key_0123456789', fetch, maxRetries: 0 });
  return client.listPets().catch((error: unknown) => error);
}

describe(describeError.name, () => {
  it.each([
    [401, 'unauthorized', 'Missing or invalid API key.', 'The API key was refused. Check that it was typed in full, or ask for a new key.'],
    [403, 'forbidden', 'This key lacks pets:write.', 'This API key is not allowed to do that. Ask for a key that is.'],
    [404, 'not_found', 'Cannot GET /v2/pets.', "Something in front of the pet store's service answered instead of it. Try again shortly, or tell whoever runs this site."],
  ])('says a %d in words for the person at the page: what to check or ask for, not HTTP', async (status, code, message, said) => {
    expect(describeError(await errorFor(status, { code, message, status }))).toBe(said);
  });

  it.each([
    [400, 'validation_failed', 'Invalid request body: categoryId must be a whole number from 1 to 9007199254740991.'],
    [413, 'payload_too_large', 'The body is larger than 16 KiB.'],
    [503, 'service_unavailable', 'Retry shortly.'],
  ])("shows the service's own message for a %d", async (status, code, message) => {
    expect(describeError(await errorFor(status, { code, message, status }))).toBe(message);
  });

  it("says when to try again after a 429 once, in the page's words: the service's message, which says it too, left out", async () => {
    const lockout = { code: 'rate_limited', message: 'Too many failed authentications from this address; retry in 41 s.', status: 429 };
    expect(describeError(await errorFor(429, lockout, { 'retry-after': '41' }))).toBe('Too many requests in a short time. Try again in 41 seconds.');
    const limited = { code: 'rate_limited', message: 'Too many requests for this API key; retry in 1 s.', status: 429 };
    expect(describeError(await errorFor(429, limited, { 'retry-after': '1' }))).toBe('Too many requests in a short time. Try again in 1 second.');
    expect(describeError(await errorFor(429, limited))).toBe('Too many requests in a short time. Try again shortly.');
  });

  it("tells an answer that is not the service's (no Error body) by what to do", async () => {
    expect(describeError(await errorFor(200, '<!doctype html>'))).toBe("Something in front of the pet store's service answered instead of it. Try again shortly, or tell whoever runs this site.");
    expect(describeError(await errorFor(404, '<!doctype html>'))).toBe("Something in front of the pet store's service answered instead of it. Try again shortly, or tell whoever runs this site.");
    expect(describeError(await errorFor(502, '<html>Bad Gateway</html>'))).toBe('The API is not working right now. Try again shortly.');
  });

  it('never shows a stack or an internal message', () => {
    expect(describeError(new ConnectionError('Could not reach http://127.0.0.1:1: fetch failed'))).toBe(
      'The service that served this page could not be reached. Check your network connection, then try again.',
    );
    expect(describeError(new TimeoutError(10_000))).toBe('The API did not answer in time. Try again.');
    expect(describeError(new Error('at Object.<anonymous> (main.js:1:1)'))).toBe('Something went wrong. Try again.');
  });
});
