import { PET_EVENT_TYPES, type PetEvent } from '@petstore/contract';
import { AbortError, ConnectionError, createApiError, PetstoreApiError, PetstoreError, TimeoutError } from './errors';
import { isRetryableStatus, retryDelayMs, sleep } from './retry';
import { type SseId, SseParser, type SseMessage } from './sse-parser';

/** One event of {@link PetstoreClient.events}: the webhook body, and its position in the stream as `id`. */
export interface StreamedEvent extends PetEvent {
  /** The event's position: increasing, the same on every instance. Pass it as `after` to resume after this event. */
  id: number;
}

/** Parameters of {@link PetstoreClient.events}. */
export interface EventsParams {
  /** Start after this event's `id`; `null` or absent: with the next event created. */
  after?: number | null;
}

/** What {@link EventsOptions.onConnectionChange} is told. */
export type ConnectionChange =
  /** The stream is open: events flow from here on. */
  | { state: 'open' }
  /** The stream dropped (or could not open) and is opened again after `delayMs`, resuming after the last event yielded. */
  | { state: 'reconnecting'; error: PetstoreError; delayMs: number; attempt: number };

/** Options of {@link PetstoreClient.events}. */
export interface EventsOptions {
  /** Ends the iteration, with an {@link AbortError}: the open stream is closed and no reconnect is made. */
  signal?: AbortSignal | null;
  /** Told each time the stream opens, and each time it dropped and will be opened again (to show a connection's state). */
  onConnectionChange?: ((change: ConnectionChange) => void) | null;
  /**
   * How long the stream may go without a byte before it is taken for dead and opened again. The service sends a
   * comment at least every 15 s.
   * @default 45000
   */
  idleTimeoutMs?: number;
}

/**
 * The stream was opened after an event that is no longer kept (events are kept 7 days), or that the service never
 * gave (a position from another database): events between it and `oldest` may have been missed. Catch up some other
 * way (list the pets), then follow again without `after`, or with `after: oldest - 1` to take every event still kept.
 */
export class EventsResetError extends PetstoreError {
  override name = 'EventsResetError';

  constructor(
    /** The position the stream was asked to resume after. */
    readonly after: number,
    /** The oldest position the service keeps. */
    readonly oldest: number,
  ) {
    super(`The service no longer keeps the events after ${after} (the oldest it keeps is ${oldest}): some may have been missed.`);
  }
}

/** Opens the stream after `after` (a GET with the client's key), aborting when `signal` does. */
export type OpenStream = (after: number | null, signal: AbortSignal) => Promise<Response>;

/** The client's settings that the stream uses. */
export interface StreamSettings {
  /** Time allowed for the response's headers. */
  openTimeoutMs: number;
  maxRetryDelayMs: number;
  /** The error a failure to reach the service is reported as (the client's, which keeps its key out of it). */
  unreachable: (error: unknown) => PetstoreError;
}

const EVENT_TYPES: readonly string[] = PET_EVENT_TYPES;
/** No byte for three of the service's promised keep-alive intervals: the connection is dead, or a proxy holds it. */
const IDLE_TIMEOUT_MS = 45_000;

/**
 * The events after `params.after`, live, for as long as the caller iterates: the stream is opened again with backoff
 * whenever it drops, after the last event yielded, so that none is missed and none yielded twice.
 */
export async function* followEvents(open: OpenStream, params: EventsParams, options: EventsOptions, settings: StreamSettings): AsyncGenerator<StreamedEvent, void, undefined> {
  const signal = options.signal ?? null;
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  let after = params.after ?? null;
  let attempt = 0;
  for (;;) {
    if (signal?.aborted) throw new AbortError({ cause: signal.reason });
    const connection = new Connection(signal);
    let dropped: { error: PetstoreError; retryAfter: string | null };
    try {
      const response = await connection.within(settings.openTimeoutMs, () => open(after, connection.signal));
      if (!response.ok) {
        const error = createApiError(response.status, await connection.within(settings.openTimeoutMs, () => response.text()), response.headers);
        if (!isRetryableStatus(response.status)) throw error;
        dropped = { error, retryAfter: response.headers.get('retry-after') };
      } else {
        const body = streamBody(response);
        attempt = 0;
        options.onConnectionChange?.({ state: 'open' });
        for await (const message of connection.messages(body, idleTimeoutMs)) {
          if ('lastEventId' in message) {
            // The service names where a stream without a position starts: a reconnect before any event resumes there.
            after ??= positionOf(message.lastEventId, response.headers);
            continue;
          }
          const event = eventOf(message, after, response.headers);
          // Every event moves the position on, one of a type passed over too: a reconnect resumes after it.
          if (message.id !== '') after = Math.max(after ?? 0, positionOf(message.id, response.headers));
          if (event !== undefined) yield event;
        }
        dropped = { error: new ConnectionError('The service ended the event stream.'), retryAfter: null };
      }
    } catch (error) {
      if (signal?.aborted) throw new AbortError({ cause: signal.reason });
      if (!isTransient(error)) throw error;
      dropped = { error: connection.failure(error, settings.unreachable), retryAfter: null };
    } finally {
      connection.close();
    }
    const delayMs = retryDelayMs(attempt, dropped.retryAfter, settings.maxRetryDelayMs);
    attempt += 1;
    options.onConnectionChange?.({ state: 'reconnecting', error: dropped.error, delayMs, attempt });
    await sleep(delayMs, signal);
  }
}

/** A failure worth opening the stream again for: anything but the service's refusal or a message it should not send. */
const isTransient = (error: unknown) => !(error instanceof PetstoreError) || error instanceof TimeoutError || error instanceof ConnectionError;

function streamBody(response: Response): ReadableStream<Uint8Array> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('text/event-stream') || response.body === null) {
    throw unexpected(response.status, response.headers, `The service answered HTTP ${response.status} with ${type || 'no content type'}, not an event stream.`);
  }
  return response.body;
}

/** The event a message carries, or undefined for one to pass over (another type, or one already yielded). */
function eventOf(message: SseMessage, after: number | null, headers: Headers): StreamedEvent | undefined {
  if (message.event === 'reset') {
    const oldest = (parseJson(message.data, headers) as { oldest?: unknown }).oldest;
    if (typeof oldest !== 'number') throw unexpected(200, headers, `The service reset the event stream without naming the oldest event it keeps: ${message.data}`);
    throw new EventsResetError(after ?? 0, oldest);
  }
  // Event types a later service may add are passed over, as a client of this version cannot type them.
  if (!EVENT_TYPES.includes(message.event)) return undefined;
  const id = positionOf(message.id, headers);
  // At least once: an event at or before the last one yielded was yielded already.
  if (after !== null && id <= after) return undefined;
  return { id, ...(parseJson(message.data, headers) as PetEvent) };
}

function positionOf(id: string, headers: Headers): number {
  const position = Number(id);
  if (id === '' || !Number.isSafeInteger(position)) throw unexpected(200, headers, `The service sent an event without a position: id "${id}".`);
  return position;
}

function parseJson(text: string, headers: Headers): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw unexpected(200, headers, `The service sent an event whose data is not JSON: ${text.slice(0, 200)}`);
  }
}

const unexpected = (status: number, headers: Headers, message: string) =>
  new PetstoreApiError(status, 'unexpected_response', message, headers.get('x-request-id') ?? undefined, undefined);

/**
 * One attempt at the stream: aborted with the caller's signal, by its own timeouts, or when the iteration leaves it.
 * A timeout is told apart from the caller's abort so that only the caller's ends the iteration.
 */
class Connection {
  private readonly controller = new AbortController();
  private readonly onAbort = () => this.controller.abort();
  private timedOutAfterMs?: number;

  constructor(private readonly callerSignal: AbortSignal | null) {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: close() removes it anyway; a signal aborts only once.
    callerSignal?.addEventListener('abort', this.onAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** `work`, aborted when it takes longer than `ms`. */
  async within<T>(ms: number, work: () => Promise<T>): Promise<T> {
    const timer = setTimeout(() => {
      this.timedOutAfterMs = ms;
      this.controller.abort();
    }, ms);
    try {
      return await work();
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The messages of `body` as they come, and the ids sent without data; each read is allowed `idleTimeoutMs` (time
   * the caller spends on a message is not counted).
   */
  async *messages(body: ReadableStream<Uint8Array>, idleTimeoutMs: number): AsyncGenerator<SseMessage | SseId, void, undefined> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    try {
      for (;;) {
        const { done, value } = await this.within(idleTimeoutMs, () => reader.read());
        if (done) return;
        yield* parser.push(decoder.decode(value, { stream: true }));
      }
    } finally {
      // Lets the connection go without waiting for the rest of a stream that does not end.
      reader.cancel().catch(() => undefined);
    }
  }

  /** What a failed attempt is reported as. */
  failure(error: unknown, unreachable: (error: unknown) => PetstoreError): PetstoreError {
    if (this.timedOutAfterMs !== undefined) return new TimeoutError(this.timedOutAfterMs);
    return error instanceof PetstoreError ? error : unreachable(error);
  }

  close(): void {
    this.callerSignal?.removeEventListener('abort', this.onAbort);
    this.controller.abort();
  }
}
