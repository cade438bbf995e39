import type { ErrorBody, ErrorCode } from '@petstore/contract';

/** A documented error code, or `unexpected_response` when the response carried no Error body. */
export type PetstoreErrorCode = ErrorCode | 'unexpected_response';

/** Base of every error this client throws. */
export class PetstoreError extends Error {
  override name = 'PetstoreError';
}

/** The service answered with an error status. `message` is the service's own sentence. */
export class PetstoreApiError extends PetstoreError {
  override name = 'PetstoreApiError';

  constructor(
    /** HTTP status of the response. */
    readonly status: number,
    /** Machine-readable code from the Error body, e.g. `validation_failed`; `unexpected_response` if there was none. */
    readonly code: PetstoreErrorCode,
    message: string,
    /** The service's `X-Request-Id`, to quote when reporting a problem. */
    readonly requestId: string | undefined,
    /** The Error body as received, when the response carried one. */
    readonly body: ErrorBody | undefined,
  ) {
    super(message);
  }
}

/** 400: a field or parameter is invalid, or the body is not JSON. */
export class BadRequestError extends PetstoreApiError {
  override name = 'BadRequestError';
}
/** 401: the API key is missing or not accepted. */
export class UnauthorizedError extends PetstoreApiError {
  override name = 'UnauthorizedError';
}
/** 403: the API key is valid but lacks the scope the operation needs (`insufficient_scope`), e.g. a read-only key creating. */
export class ForbiddenError extends PetstoreApiError {
  override name = 'ForbiddenError';
}
/** 404: no such pet. */
export class NotFoundError extends PetstoreApiError {
  override name = 'NotFoundError';
}
/** 409: a request with the same idempotency key is still running. */
export class ConflictError extends PetstoreApiError {
  override name = 'ConflictError';
}
/** 413: the body is too large. */
export class PayloadTooLargeError extends PetstoreApiError {
  override name = 'PayloadTooLargeError';
}
/** 415: the body is not JSON. */
export class UnsupportedMediaTypeError extends PetstoreApiError {
  override name = 'UnsupportedMediaTypeError';
}
/** 422: an idempotency key was reused with a different body. */
export class UnprocessableEntityError extends PetstoreApiError {
  override name = 'UnprocessableEntityError';
}
/** 429: too many requests; `retryAfterSeconds` says when to try again, if the service said. */
export class RateLimitError extends PetstoreApiError {
  override name = 'RateLimitError';
  retryAfterSeconds?: number;
}
/** 5xx: the service failed or is unavailable. */
export class ServerError extends PetstoreApiError {
  override name = 'ServerError';
}

/** The service could not be reached, or the connection broke before a response arrived. */
export class ConnectionError extends PetstoreError {
  override name = 'ConnectionError';
}

/**
 * The caller's `signal` aborted the call, before it was sent, during an attempt or while waiting to retry;
 * nothing more is sent for it. `cause` is the signal's `reason`.
 */
export class AbortError extends PetstoreError {
  override name = 'AbortError';

  constructor(options?: ErrorOptions) {
    super('The request was aborted.', options);
  }
}

/** No complete response within `timeoutMs`. */
export class TimeoutError extends PetstoreError {
  override name = 'TimeoutError';

  constructor(readonly timeoutMs: number) {
    super(`No response within ${timeoutMs} ms.`);
  }
}

const BY_STATUS: Record<number, typeof PetstoreApiError> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

function isErrorBody(value: unknown): value is ErrorBody {
  const body = value as Partial<ErrorBody> | null;
  return typeof body?.code === 'string' && typeof body.message === 'string';
}

/** The Error object of a response, or `undefined` when its body is not one (a proxy's HTML page, say). */
function errorBodyIn(text: string): ErrorBody | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: no Error object.
  }
  return isErrorBody(parsed) ? parsed : undefined;
}

/** The one place that turns an error response into an error object, choosing the class by status. */
export function createApiError(status: number, responseText: string, headers: Headers): PetstoreApiError {
  const body = errorBodyIn(responseText);
  const ErrorClass = BY_STATUS[status] ?? (status >= 500 ? ServerError : PetstoreApiError);
  const error = new ErrorClass(
    status,
    body?.code ?? 'unexpected_response',
    body?.message ?? `The service answered HTTP ${status} without an Error body.`,
    headers.get('x-request-id') ?? undefined,
    body,
  );
  const retryAfter = headers.get('retry-after');
  if (error instanceof RateLimitError && retryAfter !== null) error.retryAfterSeconds = parseRetryAfterMs(retryAfter, Date.now()) / 1000;
  return error;
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP-date; 0 when absent or unreadable. */
export function parseRetryAfterMs(value: string | null, now: number): number {
  if (!value) return 0;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? 0 : Math.max(0, date - now);
}
