import { ConnectionError, ForbiddenError, NotFoundError, PetstoreApiError, RateLimitError, TimeoutError, UnauthorizedError } from '@petstore/client';

/**
 * What a failed call says to the person at the page, never a stack. The page's own calls (listing, adding) cannot meet a
 * 404 or an answer without an Error body from the service itself, so those mean the address leads elsewhere. Other
 * refusals carry the service's message, which says what to do.
 */
export function describeError(error: unknown): string {
  if (error instanceof RateLimitError) {
    const wait = error.retryAfterSeconds;
    return `${error.message} Try again ${wait === undefined ? 'shortly' : `in ${wait} second${wait === 1 ? '' : 's'}`}.`;
  }
  if (error instanceof UnauthorizedError) return 'The API key was refused. Check that it was typed in full, or ask for a new key.';
  if (error instanceof ForbiddenError) return 'This API key is not allowed to do that. Ask for a key that is.';
  if (error instanceof PetstoreApiError && error.body === undefined && error.status >= 500) return 'The API is not working right now. Try again shortly.';
  if (error instanceof NotFoundError || (error instanceof PetstoreApiError && error.body === undefined)) return "Something answered at this address, but it is not the pet store's API. Check the API address.";
  if (error instanceof PetstoreApiError) return error.message;
  if (error instanceof TimeoutError) return 'The API did not answer in time. Try again.';
  if (error instanceof ConnectionError) return 'The API could not be reached. Check the API address and your network connection.';
  return 'Something went wrong. Try again.';
}
