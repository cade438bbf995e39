import { PetstoreClient } from '@petstore/client';

/** Where the page talks to and with which key: kept for the tab only (sessionStorage), never in a URL or a log. */
export interface Connection {
  baseUrl: string;
  apiKey: string;
}

const STORAGE_KEY = 'petstore.connection';

/** The service that serves this page, which is where the storefront usually talks to. */
export const defaultBaseUrl = (location: Pick<Location, 'origin'> = window.location): string => `${location.origin}/v1`;

export function savedConnection(storage: Storage = window.sessionStorage): Connection | undefined {
  try {
    const saved = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') as Partial<Connection> | null;
    return typeof saved?.baseUrl === 'string' && typeof saved.apiKey === 'string' ? { baseUrl: saved.baseUrl, apiKey: saved.apiKey } : undefined;
  } catch {
    return undefined;
  }
}

export function saveConnection(connection: Connection, storage: Storage = window.sessionStorage): void {
  storage.setItem(STORAGE_KEY, JSON.stringify(connection));
}

export function forgetConnection(storage: Storage = window.sessionStorage): void {
  storage.removeItem(STORAGE_KEY);
}

/**
 * A client for what a person does on the page: no retries, so that a refusal (a 429 with when to try again, a 503)
 * is shown at once for the person to decide, rather than waited out behind a spinner.
 */
export const clientFor = ({ baseUrl, apiKey }: Connection): PetstoreClient => new PetstoreClient({ baseUrl, apiKey, maxRetries: 0 });
