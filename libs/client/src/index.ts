export { PetstoreClient } from './lib/petstore-client';
export type { CreatePetOptions, IteratePetsParams, ListPetsParams, PetPage, RequestOptions } from './lib/petstore-client';
export { EventsResetError } from './lib/event-stream';
export type { ConnectionChange, EventsOptions, EventsParams, StreamedEvent } from './lib/event-stream';
export { LOCAL_BASE_URL, baseUrlFor } from './lib/options';
export { newIdempotencyKey } from './lib/idempotency-key';
export type { PetstoreClientOptions, PetstoreEnvironments, PetstoreLogger } from './lib/options';
export {
  AbortError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  PetstoreApiError,
  PetstoreError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
} from './lib/errors';
export type { PetstoreErrorCode } from './lib/errors';
export { PetStatus } from '@petstore/contract';
export type { ErrorBody, ErrorCode, NewPet, Pet, PetEvent, PetEventType } from '@petstore/contract';
