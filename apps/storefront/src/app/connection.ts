import { PetstoreClient } from '@petstore/client';

/**
 * The key the page talks with: kept for the tab only (sessionStorage), never in a URL or a log. The page talks only to
 * the service that served it (apiBaseUrl): the policy that service sets (`connect-src 'self'`) lets it reach no other.
 */
export interface Connection {
  apiKey: string;
}

const STORAGE_KEY = 'petstore.connection';

/** The API of the service that serves this page: in development, Vite's dev server, which forwards `/v1` to it. */
export const apiBaseUrl = (location: Pick<Location, 'origin'> = window.location): string => `${location.origin}/v1`;

/** The key kept for this tab; an address that an earlier version kept beside it is ignored. */
export function savedConnection(storage: Storage = window.sessionStorage): Connection | undefined {
  try {
    const saved = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') as Partial<Connection> | null;
    return typeof saved?.apiKey === 'string' ? { apiKey: saved.apiKey } : undefined;
  } catch {
    return undefined;
  }
}

export function saveConnection(connection: Connection, storage: Storage = window.sessionStorage): void {
  storage.setItem(STORAGE_KEY, JSON.stringify({ apiKey: connection.apiKey }));
}

export function forgetConnection(storage: Storage = window.sessionStorage): void {
  storage.removeItem(STORAGE_KEY);
}

/**
 * A client for what a person does on the page: no retries, so that a refusal (a 429 with when to try again, a 503)
 * is shown at once for the person to decide, rather than waited out behind a spinner.
 */
export const clientFor = ({ apiKey }: Connection): PetstoreClient => new PetstoreClient({ baseUrl: apiBaseUrl(), apiKey, maxRetries: 0 });
