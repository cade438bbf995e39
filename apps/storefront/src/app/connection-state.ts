import { ConnectionError, type PetstoreClient, UnauthorizedError } from '@petstore/client';
import { clientFor, type Connection } from './connection';
import { describeError } from './describe-error';
import type { PetList } from './use-pet-list';

/** What the page says about its connection: one thing at a time. */
export type ConnectionState =
  /** No key yet, or disconnected. */
  | { kind: 'none' }
  /** The first page of pets has been asked for; nothing is known yet. `address`: the API the page talks to, named. */
  | { kind: 'checking'; address: string }
  /** The service answered with pets: the key works. */
  | { kind: 'connected'; address: string }
  /** It does not, or the service could not be asked: why, in the person's words. */
  | { kind: 'failed'; reason: string };

/** The client of a connection, or what to fix first: a key of spaces alone is none once trimmed, and the client needs one. */
export function clientOf(connection: Connection | undefined): { client?: PetstoreClient; problem?: string } {
  if (!connection) return {};
  return connection.apiKey === '' ? { problem: 'Enter the API key.' } : { client: clientFor(connection) };
}

/** A failure that says the key does not work or the service cannot be reached, even after pets were listed. */
const lostConnection = (error: unknown) => error instanceof UnauthorizedError || error instanceof ConnectionError;

/**
 * "Connected" only once the service has answered the list. Any failure before that is the connection's; after it, only a
 * refused key or an unreachable service is, and other failures are the list's to show.
 */
export function connectionState({ client, problem }: ReturnType<typeof clientOf>, list: Pick<PetList, 'answered' | 'error'>): ConnectionState {
  if (problem !== undefined) return { kind: 'failed', reason: problem };
  if (!client) return { kind: 'none' };
  if (list.error !== undefined && (!list.answered || lostConnection(list.error))) return { kind: 'failed', reason: describeError(list.error) };
  return { kind: list.answered ? 'connected' : 'checking', address: client.baseUrl };
}
