import { HttpException } from '@nestjs/common';
import { ERROR_MESSAGE_MAX_LENGTH, type ErrorBody, type ErrorCode } from '@petstore/contract';
import { REQUEST_BOUNDS } from './request-bounds';
import { ApiException } from '../errors/api-exception';

export interface ErrorResponse {
  body: ErrorBody;
  headers: Record<string, string>;
  /** Unexpected errors are logged with their stack; expected ones are not. */
  unexpected: boolean;
}

// Errors raised by Fastify (content type, body size, URL) or Nest reach here as HttpExceptions that carry only a
// status; each status maps to one code, and where the framework's wording is unhelpful, to one message.
const BY_STATUS: Partial<Record<number, [ErrorCode, string?]>> = {
  400: ['bad_request'],
  401: ['unauthorized'],
  404: ['not_found'],
  405: ['method_not_allowed'],
  408: ['request_timeout', 'The request did not arrive in time.'],
  413: ['payload_too_large', `Request body must not exceed ${REQUEST_BOUNDS.bodyBytes} bytes.`],
  414: ['uri_too_long', `The URL must not exceed ${REQUEST_BOUNDS.urlBytes} bytes.`],
  415: ['unsupported_media_type', 'Content-Type must be application/json.'],
  429: ['rate_limited'],
  431: ['header_too_large', `Request headers must not exceed ${REQUEST_BOUNDS.headerBytes} bytes in total.`],
  503: ['service_unavailable'],
};

const INTERNAL: ErrorResponse = {
  body: { code: 'internal_error', message: 'The service failed to handle this request; it has been logged.', status: 500 },
  headers: {},
  unexpected: true,
};

/** Maps anything thrown on any path of a request to the interface's Error object. */
export function toErrorResponse(thrown: unknown): ErrorResponse {
  if (thrown instanceof ApiException) {
    return { body: { code: thrown.code, message: bounded(thrown.message), status: thrown.getStatus() }, headers: thrown.headers, unexpected: false };
  }
  const status = statusOf(thrown);
  const known = status === undefined ? undefined : BY_STATUS[status];
  if (status === undefined || !known) return INTERNAL;
  const [code, message = sentence((thrown as Error).message)] = known;
  return { body: { code, message: bounded(message), status }, headers: {}, unexpected: false };
}

function statusOf(thrown: unknown): number | undefined {
  if (thrown instanceof HttpException) return thrown.getStatus();
  // Fastify's own errors carry statusCode when they bypass Nest (e.g. thrown from a hook).
  const statusCode = (thrown as { statusCode?: unknown } | null)?.statusCode;
  return thrown instanceof Error && thrown.name === 'FastifyError' && typeof statusCode === 'number' ? statusCode : undefined;
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * The document promises a bounded `message`; a body listing thousands of unknown properties would otherwise echo
 * them all. Counted in code points, as JSON Schema's maxLength is, so that no surrogate pair is split.
 */
function bounded(message: string): string {
  if (message.length <= ERROR_MESSAGE_MAX_LENGTH) return message;
  const points = Array.from(message);
  return points.length <= ERROR_MESSAGE_MAX_LENGTH ? message : `${points.slice(0, ERROR_MESSAGE_MAX_LENGTH - 1).join('')}…`;
}
