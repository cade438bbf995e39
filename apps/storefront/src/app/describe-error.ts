import { ConnectionError, ForbiddenError, PetstoreApiError, RateLimitError, TimeoutError, UnauthorizedError } from '@petstore/client';

/** What a failed call says to a person: the service's own message where there is one, never a stack. */
export function describeError(error: unknown): string {
  if (error instanceof RateLimitError) {
    const wait = error.retryAfterSeconds;
    return `${error.message} Try again ${wait === undefined ? 'shortly' : `in ${wait} second${wait === 1 ? '' : 's'}`}.`;
  }
  if (error instanceof UnauthorizedError) return `The API key was refused: ${error.message}`;
  if (error instanceof ForbiddenError) return `This API key may not do that: ${error.message}`;
  if (error instanceof PetstoreApiError) return error.message;
  if (error instanceof TimeoutError) return 'The API did not answer in time. Try again.';
  if (error instanceof ConnectionError) return 'The API could not be reached. Check its address and your connection.';
  return 'Something went wrong. Try again.';
}
