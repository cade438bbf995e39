import { API_VERSION, filtersIn, type NewPet, type Pet, type PetStatus } from '@petstore/contract';
import { AbortError, ConnectionError, createApiError, PetstoreApiError, TimeoutError } from './errors';
import { type EventsOptions, type EventsParams, followEvents, type OpenStream, type StreamedEvent } from './event-stream';
import { newIdempotencyKey } from './idempotency-key';
import { nextCursorFrom } from './link-header';
import { LOCAL_BASE_URL, type PetstoreClientOptions, type PetstoreLogger } from './options';
import { isRetryableStatus, isStillRunning, retryDelayMs, sleep } from './retry';

// The filters below are PET_FILTERS's, written out so that the API report shows each parameter of the client with its
// words; petstore-client.spec.ts holds them to the contract's list, and the requests send whichever are given.

/** Parameters of {@link PetstoreClient.listPets}; a parameter that is `null` or `undefined` is not sent. */
export interface ListPetsParams {
  /** Pets per page, 1 to 100. @default 20 (the service's default) */
  limit?: number | null;
  /** Only pets with this status. */
  status?: PetStatus | null;
  /**
   * Only pets whose name contains this text, ignoring case ("ÉLO" finds "Éloïse"): 1 to 100 characters, not only
   * whitespace, no control characters. New in 1.1.0: a service of an earlier version refuses it.
   */
  name?: string | null;
  /** Only pets of this category. New in 1.1.0: a service of an earlier version refuses it. */
  categoryId?: number | null;
  /** Where the page starts: the `nextCursor` of the previous page, passed as it is (`null` means the first page). */
  cursor?: string | null;
}

/** Parameters of {@link PetstoreClient.iteratePets}; a parameter that is `null` or `undefined` is not sent. */
export interface IteratePetsParams {
  /** Only pets with this status. */
  status?: PetStatus | null;
  /** Only pets whose name contains this text, ignoring case, as for {@link PetstoreClient.listPets}. New in 1.1.0. */
  name?: string | null;
  /** Only pets of this category. New in 1.1.0. */
  categoryId?: number | null;
  /** Pets fetched per request, 1 to 100. @default 20 (the service's default) */
  pageSize?: number | null;
}

/** One page of {@link PetstoreClient.listPets}. */
export interface PetPage {
  pets: Pet[];
  /** Pass as `cursor` to get the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * Options of one call, the last argument of every method; `timeoutMs` and `maxRetries` override the client's own.
 * @example
 * ```ts
 * const controller = new AbortController();
 * const page = await petstore.listPets({ limit: 50 }, { signal: controller.signal, timeoutMs: 2_000, maxRetries: 0 });
 * ```
 */
export interface RequestOptions {
  /**
   * Cancels the call: the attempt under way, a wait before a retry and every retry after it. The call then rejects
   * with an {@link AbortError}; with a signal already aborted, nothing is sent.
   */
  signal?: AbortSignal | null;
  /**
   * Time allowed for each attempt of this call, response body included.
   * @default the client's `timeoutMs`
   */
  timeoutMs?: number;
  /**
   * Retries of a failed attempt of this call, if it is safe to repeat.
   * @default the client's `maxRetries`
   */
  maxRetries?: number;
}

/** Options of {@link PetstoreClient.createPet}. */
export interface CreatePetOptions extends RequestOptions {
  /**
   * Sent as `Idempotency-Key`: the service answers a repeat with the original pet instead of adding a second one.
   * By default each call makes a random key of its own, so that its retries are safe. Pass your own (stored with
   * whatever the pet is for) to make a create safe to repeat across calls, processes and restarts, for 24 hours.
   * With `maxRetries: 0` (the client's or this call's) and no key given, none is sent.
   */
  idempotencyKey?: string;
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  operation: string;
  /** `null` and `undefined` values are left out of the URL. */
  query?: Record<string, string | number | null | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Safe to send again after a failure. */
  retryable: boolean;
  /** Carries an Idempotency-Key, so that a 409 (the first attempt still running) is worth waiting out too. */
  idempotent?: boolean;
}

/** {@link RequestOptions} with the client's defaults filled in. */
interface Resolved {
  signal: AbortSignal | null;
  timeoutMs: number;
  maxRetries: number;
}

interface Received {
  status: number;
  headers: Headers;
  text: string;
}

const IN_BROWSER = typeof (globalThis as { document?: unknown }).document !== 'undefined';

/**
 * A client of the Pet Store service.
 * @example
 * ```ts
 * const petstore = new PetstoreClient({ baseUrl: 'https://petstore.example.com/v1', apiKey: process.env.PETSTORE_API_KEY });
 * for await (const pet of petstore.iteratePets({ status: PetStatus.Available })) console.log(pet.name);
 * ```
 */
export class PetstoreClient {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryDelayMs: number;
  // A private field: the key stays out of console.log, JSON.stringify and error objects.
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #userAgent: string | undefined;
  readonly #logger: PetstoreLogger;
  readonly #warnedDeprecated = new Set<string>();

  constructor(options: PetstoreClientOptions) {
    if (!options || typeof options.apiKey !== 'string' || options.apiKey === '') {
      throw new TypeError('PetstoreClient needs an apiKey.');
    }
    this.baseUrl = absoluteBaseUrl(options.baseUrl ?? LOCAL_BASE_URL);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    // Browsers keep their own User-Agent and would make it a CORS-preflighted header; send one only elsewhere.
    this.#userAgent = options.userAgent ?? (IN_BROWSER ? undefined : `petstore-client/${API_VERSION}`);
    this.#logger = options.logger ?? console;
  }

  /** One page of pets, ordered by id. Follow `nextCursor` for the rest, or use {@link PetstoreClient.iteratePets}. */
  async listPets(params: ListPetsParams = {}, options: RequestOptions = {}): Promise<PetPage> {
    const { limit, cursor } = params;
    const received = await this.call(
      {
        method: 'GET',
        path: '/pets',
        operation: 'listPets',
        query: { limit, ...filtersIn(params), cursor },
        retryable: true,
      },
      this.resolve(options),
    );
    return { pets: parseBody<Pet[]>(received), nextCursor: nextCursorFrom(received.headers.get('link')) };
  }

  /**
   * Every pet that passes the filters given (status, name, category), page after page, until the last; `options` apply
   * to each page's request.
   */
  async *iteratePets(params: IteratePetsParams = {}, options: RequestOptions = {}): AsyncGenerator<Pet, void, undefined> {
    const filters = filtersIn(params);
    let cursor: string | null = null;
    do {
      const page = await this.listPets({ ...filters, limit: params.pageSize, cursor }, options);
      yield* page.pets;
      cursor = page.nextCursor;
    } while (cursor !== null);
  }

  /** Adds a pet; resolves to it with its assigned `id` (and `status`, `available` by default). */
  async createPet(newPet: NewPet, options: CreatePetOptions = {}): Promise<Pet> {
    const resolved = this.resolve(options);
    const idempotencyKey = options.idempotencyKey ?? (resolved.maxRetries > 0 ? newIdempotencyKey() : undefined);
    const idempotent = idempotencyKey !== undefined;
    const received = await this.call(
      {
        method: 'POST',
        path: '/pets',
        operation: 'createPet',
        body: newPet,
        headers: idempotent ? { 'idempotency-key': idempotencyKey } : undefined,
        // Without a key a retry could add the pet twice: a create that failed midway is then the caller's to check.
        retryable: idempotent,
        idempotent,
      },
      resolved,
    );
    return parseBody<Pet>(received);
  }

  /**
   * One pet by id.
   * @deprecated The service removes this operation on 2030-12-05. Use {@link PetstoreClient.listPets} with `status` instead.
   */
  async getPet(id: number, options: RequestOptions = {}): Promise<Pet> {
    const received = await this.call(
      { method: 'GET', path: `/pets/${encodeURIComponent(String(id))}`, operation: 'getPet', retryable: true },
      this.resolve(options),
    );
    return parseBody<Pet>(received);
  }

  /**
   * Every event from now on (or after `after`), as the service streams them, for as long as you iterate: the stream
   * is opened again with backoff whenever it drops (an instance stopping, a network failure, a 429 or 5xx), after the
   * last event yielded, so that none is missed and none yielded twice. Ends with an {@link AbortError} when `signal`
   * aborts; a `break` closes it. Throws an {@link EventsResetError} when events after `after` are no longer kept, and
   * the service's refusal (401, 403, 400) as for any call. New in 1.2.0: a service of an earlier version answers 404.
   * @example
   * ```ts
   * const controller = new AbortController();
   * for await (const event of petstore.events({}, { signal: controller.signal })) {
   *   console.log(event.id, event.type, event.data.name);
   * }
   * ```
   */
  events(params: EventsParams = {}, options: EventsOptions = {}): AsyncGenerator<StreamedEvent, void, undefined> {
    const open: OpenStream = (after, signal) =>
      this.#fetch(this.url('/events', { after }), {
        method: 'GET',
        headers: {
          accept: 'text/event-stream',
          authorization: `Bearer ${this.#apiKey}`,
          ...(this.#userAgent === undefined ? {} : { 'user-agent': this.#userAgent }),
        },
        // The position travels in the query rather than Last-Event-ID: no header beyond Authorization for a
        // cross-origin page to have allowed, and any proxy passes it.
        cache: 'no-store',
        signal,
      });
    return followEvents(open, params, options, {
      openTimeoutMs: this.timeoutMs,
      maxRetryDelayMs: this.maxRetryDelayMs,
      unreachable: (error) => this.unreachable(error),
    });
  }

  private resolve(options: RequestOptions): Resolved {
    return {
      signal: options.signal ?? null,
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
      maxRetries: options.maxRetries ?? this.maxRetries,
    };
  }

  private async call(call: Call, { signal, timeoutMs, maxRetries }: Resolved): Promise<Received> {
    const url = this.url(call.path, call.query);
    for (let attempt = 0; ; attempt += 1) {
      if (signal?.aborted) throw new AbortError({ cause: signal.reason });
      const canRetry = call.retryable && attempt < maxRetries;
      let received: Received;
      try {
        received = await this.send(call, url, signal, timeoutMs);
      } catch (error) {
        if (!canRetry || error instanceof AbortError) throw error;
        await sleep(retryDelayMs(attempt, null, this.maxRetryDelayMs), signal);
        continue;
      }
      this.warnIfDeprecated(call.operation, received.headers);
      // Stryker disable next-line ConditionalExpression: fetch never yields a status below 200 (1xx are interim).
      if (received.status >= 200 && received.status < 300) return received;
      if (canRetry && (isRetryableStatus(received.status) || (call.idempotent && isStillRunning(received)))) {
        await sleep(retryDelayMs(attempt, received.headers.get('retry-after'), this.maxRetryDelayMs), signal);
        continue;
      }
      throw createApiError(received.status, received.text, received.headers);
    }
  }

  /** One attempt: the whole response, body included, within the timeout, unless the caller's signal aborts it. */
  private async send(call: Call, url: string, signal: AbortSignal | null, timeoutMs: number): Promise<Received> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    // One controller for both, since AbortSignal.any is missing from Node 18 and older browsers.
    const onAbort = () => controller.abort();
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: `finally` removes it anyway; a signal aborts only once.
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.#fetch(url, {
        method: call.method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${this.#apiKey}`,
          ...(this.#userAgent === undefined ? {} : { 'user-agent': this.#userAgent }),
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...call.headers,
        },
        // Stryker disable next-line ConditionalExpression: JSON.stringify(undefined) is undefined too, but typed a string.
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: controller.signal,
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      if (timedOut) throw new TimeoutError(timeoutMs);
      if (signal?.aborted) throw new AbortError({ cause: signal.reason });
      throw this.unreachable(error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** A failure to reach the service, as a ConnectionError that never quotes the key. */
  private unreachable(error: unknown): ConnectionError {
    const failure = describeFailure(error);
    const redacted = this.redact(failure);
    // The original error is kept as the cause for debugging, unless it quotes the key.
    return new ConnectionError(`Could not reach ${new URL(this.baseUrl).origin}: ${redacted}`, redacted === failure ? { cause: error } : {});
  }

  private url(path: string, query: Call['query'] = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) params.set(name, String(value));
    // A space as "%20" rather than URLSearchParams' "+", which a reader of the URL may take for a plus.
    const search = params.toString().replace(/\+/g, '%20');
    return `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  private warnIfDeprecated(operation: string, headers: Headers): void {
    const sunset = headers.get('sunset');
    if ((!headers.has('deprecation') && !sunset) || this.#warnedDeprecated.has(operation)) return;
    this.#warnedDeprecated.add(operation);
    // Stryker disable next-line StringLiteral: any text without a successor link finds none, as '' does.
    const successor = /<([^>]*)>\s*;\s*rel="?successor-version"?/i.exec(headers.get('link') ?? '')?.[1];
    this.#logger.warn(
      `petstore: ${operation} is deprecated by the service` +
        (sunset ? ` and will be removed after ${sunset}` : '') +
        (successor ? `; use ${successor} instead` : '') +
        '.',
    );
  }

  private redact(text: string): string {
    return text.split(this.#apiKey).join('[redacted]');
  }
}

/** The base address as an absolute URL without a trailing slash; relative ones resolve against the page. */
function absoluteBaseUrl(baseUrl: string): string {
  const page = (globalThis as { location?: { href: string } }).location?.href;
  if (!URL.canParse(baseUrl, page)) throw new TypeError(`baseUrl must be an absolute URL such as https://petstore.example.com/v1 (got "${baseUrl}").`);
  return new URL(baseUrl, page).href.replace(/\/+$/, '');
}

/** A 2xx body that is not JSON (a proxy's page, say) is an unexpected response, not a SyntaxError. */
function parseBody<T>({ status, headers, text }: Received): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new PetstoreApiError(status, 'unexpected_response', `The service answered HTTP ${status} with a body that is not JSON.`, headers.get('x-request-id') ?? undefined, undefined);
  }
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message ? `${error.message} (${cause.message})` : error.message;
}
