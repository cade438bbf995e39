import { EventsResetError, ForbiddenError, PetstoreApiError, type PetstoreError, UnauthorizedError } from '@petstore/client';
import { OPERATION_SCOPES, type OperationId } from '@petstore/contract';

/** What a command connected for: the operation it calls, the words that run it and where its API key came from. */
export interface Connection {
  operation: OperationId;
  /** The command line that calls it, e.g. "petstore pets add". */
  command: string;
  keyFrom: '--api-key' | 'PETSTORE_API_KEY';
}

/**
 * The line on stderr for a call that failed. A refused key (401) or a missing scope (403) is put in the CLI's words,
 * naming where the key came from: the service's own message tells an HTTP client to send an Authorization header,
 * which means nothing at a shell. Anything else is the service's message, or the client's for a network failure.
 */
export function describeFailure(error: PetstoreError, connection: Connection | undefined): string {
  if (error instanceof EventsResetError) {
    return (
      `error: the service no longer keeps the events after ${error.after} (the oldest it keeps is ${error.oldest}); ` +
      `run again with --after ${error.oldest - 1} for every event it keeps, or without --after for new ones only\n`
    );
  }
  if (!(error instanceof PetstoreApiError)) return `error: ${error.message}\n`;
  const outcome = `(${error.code}, HTTP ${error.status})`;
  if (connection && error instanceof UnauthorizedError) {
    return connection.keyFrom === '--api-key'
      ? `error: the service refused the API key passed with --api-key ${outcome}; pass a valid key, or set PETSTORE_API_KEY to one and leave --api-key out\n`
      : `error: the service refused the API key in PETSTORE_API_KEY ${outcome}; set PETSTORE_API_KEY to a valid key (or pass one with --api-key)\n`;
  }
  if (connection && error instanceof ForbiddenError) {
    const scope = OPERATION_SCOPES[connection.operation];
    const key = connection.keyFrom === '--api-key' ? 'passed with --api-key' : 'in PETSTORE_API_KEY';
    return `error: the API key ${key} does not hold the ${scope} scope that '${connection.command}' needs ${outcome}; use a key that holds ${scope}\n`;
  }
  return `error: ${error.message} ${outcome}\n`;
}
