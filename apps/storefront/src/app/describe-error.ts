import { ConnectionError, ForbiddenError, NotFoundError, PetstoreApiError, RateLimitError, TimeoutError, UnauthorizedError } from '@petstore/client';

/**
 * What a failed call says to the person at the page, never a stack. The page talks only to the service that served it,
 * whose own answers to the page's calls (listing, adding) are never a 404 or without an Error body: those come from
 * something in front of it (a proxy, a gateway). Other refusals carry the service's message, which says what to do,
 * except a 429's, whose wait the page says itself, once.
 */
export function describeError(error: unknown): string {
  if (error instanceof RateLimitError) {
    const wait = error.retryAfterSeconds;
    return `Too many requests in a short time. Try again ${wait === undefined ? 'shortly' : `in ${wait} second${wait === 1 ? '' : 's'}`}.`;
  }
  if (error instanceof UnauthorizedError) return 'The API key was refused. Check that it was typed in full, or ask for a new key.';
  if (error instanceof ForbiddenError) return 'This API key is not allowed to do that. Ask for a key that is.';
  if (error instanceof PetstoreApiError && error.body === undefined && error.status >= 500) return 'The API is not working right now. Try again shortly.';
  if (error instanceof NotFoundError || (error instanceof PetstoreApiError && error.body === undefined)) {
    return "Something in front of the pet store's service answered instead of it. Try again shortly, or tell whoever runs this site.";
  }
  if (error instanceof PetstoreApiError) return error.message;
  if (error instanceof TimeoutError) return 'The API did not answer in time. Try again.';
  if (error instanceof ConnectionError) return 'The service that served this page could not be reached. Check your network connection, then try again.';
  return 'Something went wrong. Try again.';
}
