import { ConnectionError, type PetstoreClient, UnauthorizedError } from '@petstore/client';
import { clientFor, type Connection, defaultBaseUrl } from './connection';
import { describeError } from './describe-error';
import type { PetList } from './use-pet-list';

/** What the page says about its connection: one thing at a time. */
export type ConnectionState =
  /** No address and key yet, or disconnected. */
  | { kind: 'none' }
  /** The first page of pets has been asked for; nothing is known yet. */
  | { kind: 'checking'; address: string }
  /** The service answered with pets: the address and the key work. */
  | { kind: 'connected'; address: string }
  /** They do not, and why, in the person's words. */
  | { kind: 'failed'; reason: string };

/** The client of a connection, or what to fix when the client refuses it. */
export function clientOf(connection: Connection | undefined): { client?: PetstoreClient; problem?: string } {
  if (!connection) return {};
  try {
    return { client: clientFor(connection) };
  } catch {
    return { problem: connection.apiKey === '' ? 'Enter the API key.' : `The API address must be a full web address, such as ${defaultBaseUrl()}.` };
  }
}

/** A failure that says the key or the address does not work, even after pets were listed with them. */
const lostConnection = (error: unknown) => error instanceof UnauthorizedError || error instanceof ConnectionError;

/**
 * "Connected" only once the service has answered the list. Any failure before that is the connection's; after it, only a
 * refused key or an unreachable address is, and other failures are the list's to show.
 */
export function connectionState({ client, problem }: ReturnType<typeof clientOf>, list: Pick<PetList, 'answered' | 'error'>): ConnectionState {
  if (problem !== undefined) return { kind: 'failed', reason: problem };
  if (!client) return { kind: 'none' };
  if (list.error !== undefined && (!list.answered || lostConnection(list.error))) return { kind: 'failed', reason: describeError(list.error) };
  return { kind: list.answered ? 'connected' : 'checking', address: client.baseUrl };
}
