import { ApiException } from '../errors/api-exception';

// The answers of the pets operations that are theirs alone, in one place: the operations throw them and the OpenAPI
// document shows them as its examples (pets-api-docs.decorator.ts), so that an example is the error as answered.

/** `raw` as the request wrote it: an id beyond the safe range is named as sent, not as JavaScript rounds it. */
export const petNotFound = (raw: string | number) => new ApiException('not_found', `No pet has id ${raw}.`);

export const idempotencyKeyReused = () =>
  new ApiException(
    'idempotency_key_reused',
    'Idempotency-Key was already used with a different request body; send a new key to create another pet.',
  );

export const idempotencyKeyInUse = () =>
  new ApiException(
    'idempotency_key_in_use',
    'Idempotency-Key belongs to a create that is still running; retry once it has been answered.',
    { 'retry-after': '1' },
  );
