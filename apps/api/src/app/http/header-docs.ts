import type { HeaderObject, SchemaObject } from '@nestjs/swagger';
import { RATE_LIMIT_WINDOWS } from '../rate-limit/rate-limits';

/** Response headers of one response, as the OpenAPI document describes them. */
export type HeaderDocs = Record<string, HeaderObject & { schema: SchemaObject }>;

/** A string header whose values are bounded; `pattern` where the value has a fixed shape. */
export const stringHeader = (description: string, schema: { maxLength: number; pattern?: string; example: string }) => ({
  description,
  schema: { type: 'string', ...schema },
});

/** A header whose only value is `value`. */
export const fixedHeader = (description: string, value: string) => ({
  description,
  schema: { type: 'string', enum: [value], example: value },
});

// IETF RateLimit fields as rate-limits.ts writes them: a policy name, then numbers of at most 7 digits (the limits
// are at most 1000000).
const RATE_LIMIT_FIELD_MAX_LENGTH = 64;
const policyField = (description: string, example: string) =>
  stringHeader(description, { maxLength: RATE_LIMIT_FIELD_MAX_LENGTH, pattern: '^"[a-z-]+";q=[0-9]+;w=[0-9]+$', example });
const stateField = (description: string, example: string) =>
  stringHeader(description, { maxLength: RATE_LIMIT_FIELD_MAX_LENGTH, pattern: '^"[a-z-]+";r=[0-9]+;t=[0-9]+$', example });

/** On every authenticated answer while the per-key limit is on (`RATE_LIMIT_RPS` above 0, the default). */
export const RATE_LIMIT_HEADERS: HeaderDocs = {
  'RateLimit-Policy': policyField(
    'The per-key limit, as IETF `RateLimit-Policy`; on every authenticated answer unless `RATE_LIMIT_RPS=0`.',
    '"default";q=100;w=1',
  ),
  RateLimit: stateField(
    'What is left of the per-key limit in this window (`r`) and the seconds until it resets (`t`), as IETF `RateLimit`.',
    '"default";r=99;t=1',
  ),
};

/** On a 401 while the failed-authentication limit is on (`RATE_LIMIT_AUTH_FAILURES` above 0, the default). */
const AUTH_FAILURE_RATE_LIMIT_HEADERS: HeaderDocs = {
  'RateLimit-Policy': policyField(
    "The client address's failed-authentication limit, as IETF `RateLimit-Policy`; unless `RATE_LIMIT_AUTH_FAILURES=0`.",
    '"auth-failures";q=30;w=60',
  ),
  RateLimit: stateField(
    'How many more failed authentications this address may make (`r`) before it gets `429`, and when that resets (`t`).',
    '"auth-failures";r=29;t=60',
  ),
};

export const RETRY_AFTER_HEADER: HeaderDocs = {
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: Math.max(...Object.values(RATE_LIMIT_WINDOWS)), example: 1 },
  },
};

export const UNAUTHORIZED_HEADERS: HeaderDocs = {
  'WWW-Authenticate': stringHeader('The scheme to authenticate with.', { maxLength: 255, pattern: '^Bearer\\b', example: 'Bearer' }),
  ...AUTH_FAILURE_RATE_LIMIT_HEADERS,
};

/** On a 403: RFC 6750's challenge naming the scope the operation needs. */
export const insufficientScopeHeaders = (scope: string): HeaderDocs => ({
  'WWW-Authenticate': fixedHeader(
    'RFC 6750 (section 3.1): the key lacks the scope this operation needs.',
    `Bearer error="insufficient_scope", scope="${scope}"`,
  ),
});

export const TOO_MANY_REQUESTS_HEADERS: HeaderDocs = {
  ...RETRY_AFTER_HEADER,
  'RateLimit-Policy': policyField(
    'The limit that was reached, as IETF `RateLimit-Policy`: the key\'s (`"default"`) or the address\'s failed ' +
      'authentications (`"auth-failures"`).',
    '"default";q=100;w=1',
  ),
  RateLimit: stateField('Nothing is left of it (`r=0`); it resets in `t` seconds.', '"default";r=0;t=1'),
};
