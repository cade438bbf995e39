/** Where the client writes warnings (e.g. deprecation notices). `console` fits. */
export interface PetstoreLogger {
  warn(message: string): void;
}

export interface PetstoreClientOptions {
  /**
   * Address of the service, ending in the version segment.
   * @default LOCAL_BASE_URL ("http://localhost:3000/v1")
   * @example "https://petstore.example.com/v1"
   */
  baseUrl?: string;
  /** The API key, sent as `Authorization: Bearer <apiKey>`. Never logged, never put in an error. */
  apiKey: string;
  /**
   * The fetch implementation to use; injected, never patched.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Time allowed for one attempt, response body included.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * Retries of a failed attempt, for requests that are safe to repeat: GETs, and creates (they carry an Idempotency-Key).
   * @default 2
   */
  maxRetries?: number;
  /**
   * Longest wait before a retry, also when the service asks for longer with `Retry-After`.
   * @default 30000
   */
  maxRetryDelayMs?: number;
  /**
   * `User-Agent` sent with every request (browsers may keep their own).
   * @default `petstore-client/${API_VERSION}` (the interface version)
   */
  userAgent?: string;
  /**
   * Receives warnings, e.g. once per operation when the service marks it deprecated.
   * @default console
   */
  logger?: PetstoreLogger;
}

/** The service's own default address, as `npm start` serves it. */
export const LOCAL_BASE_URL = 'http://localhost:3000/v1';

/**
 * Production and staging addresses. The interface gives them as placeholders, so each deployment names its own.
 * @example environments.production = 'https://petstore.example.com/v1'
 */
export interface PetstoreEnvironments {
  production: string;
  staging?: string;
}

/** The base address of one environment, checked to end in the version segment. */
export function baseUrlFor(environment: keyof PetstoreEnvironments, environments: PetstoreEnvironments): string {
  const url = environments[environment];
  if (!url || !/\/v1\/?$/.test(url)) throw new TypeError(`No ${environment} address ending in /v1 is configured.`);
  return url;
}
