import { ApiResponse } from '@nestjs/swagger';
import { ErrorDto } from '@petstore/contract/dto';
import { OPERATION_SCOPES, type OperationId } from '@petstore/contract';
import { insufficientScope, unauthorized } from '../auth/bearer-auth.hook';
import { databaseReadOnly, serviceUnavailable } from '../database/database-failure';
import { rateLimited } from '../rate-limit/rate-limits';
import { toErrorResponse } from '../http/error-response';
import { type HeaderDocs, insufficientScopeHeaders, RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER, TOO_MANY_REQUESTS_HEADERS, UNAUTHORIZED_HEADERS } from '../http/header-docs';

// The answers every documented operation shares, for the OpenAPI decorators beside each controller (pets, events).

/** An error response whose examples are made by the factories the service throws. */
const error = (status: number, description: string, headers: HeaderDocs, examples: Record<string, [summary: string, thrown: unknown]>) =>
  ApiResponse({
    status,
    description,
    type: ErrorDto,
    headers,
    examples: Object.fromEntries(Object.entries(examples).map(([name, [summary, thrown]]) => [name, { summary, value: toErrorResponse(thrown).body }])),
  });

export type Examples = Parameters<typeof error>[3];

/**
 * The answers of one operation, `own` being the headers it sends on every answer. Answers after authentication carry
 * the key's RateLimit fields; a 401 comes before it and carries the address's failed-authentication budget instead.
 */
export function responses(operation: OperationId, own: HeaderDocs) {
  const authenticated = (headers: HeaderDocs = {}): HeaderDocs => ({ ...own, ...RATE_LIMIT_HEADERS, ...headers });
  const scope = OPERATION_SCOPES[operation];
  return {
    authenticated,
    error: (status: number, description: string, examples: Examples, headers?: HeaderDocs) =>
      error(status, description, authenticated(headers), examples),
    /**
     * `writes`: the operation writes, so a database that takes no writes now is a 503 of its own. `tooMany`: the
     * operation's own reasons for a 429, besides the rate limits.
     */
    common: ({ writes = false, tooMany = {} }: { writes?: boolean; tooMany?: Examples } = {}) => [
      error(401, 'Missing or invalid API key (`unauthorized`).', { ...own, ...UNAUTHORIZED_HEADERS }, {
        unauthorized: ['No key, or one the service does not know', unauthorized()],
      }),
      error(
        403,
        `The API key is valid but does not hold the \`${scope}\` scope this operation needs (\`insufficient_scope\`).`,
        authenticated(insufficientScopeHeaders(scope)),
        { insufficient_scope: [`A key without ${scope}`, insufficientScope(scope)] },
      ),
      error(
        429,
        'Too many requests for this key, or too many failed authentications from this address (`rate_limited`).',
        { ...own, ...TOO_MANY_REQUESTS_HEADERS },
        {
          per_key: ["Over the key's requests per second", rateLimited('key', 1)],
          failed_authentications: ['Too many failed authentications from this address', rateLimited('address', 42)],
          ...tooMany,
        },
      ),
      error(500, 'The service failed unexpectedly (`internal_error`).', authenticated(), {
        internal_error: ['A failure the service did not expect (it is logged with its request id)', new Error('unexpected')],
      }),
      error(
        503,
        'The database cannot serve right now (`service_unavailable`); retry after `Retry-After`.',
        authenticated(RETRY_AFTER_HEADER),
        {
          service_unavailable: ['The database is unreachable or full', serviceUnavailable()],
          ...(writes ? { read_only: ['The database takes no writes now: a failover under way', databaseReadOnly()] } : {}),
        },
      ),
    ],
  };
}
