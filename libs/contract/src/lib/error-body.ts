/** Machine-readable error codes the service answers with; `status` gives the HTTP status of each. */
export const ERROR_CODES = {
  bad_request: 400,
  malformed_json: 400,
  validation_failed: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  header_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
} as const;

/** One of the documented error codes. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The body of every error response: `status` repeats the HTTP status code. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
}
