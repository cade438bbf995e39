import type { NewPet, Pet } from '@petstore/contract';

/** A request the page sent, as the tests' fetch saw it. */
export interface SentRequest {
  method: string;
  url: URL;
  headers: Headers;
  body?: unknown;
  /** The request's signal: aborted when the page gave up on it. */
  signal?: AbortSignal;
}

type Answer = Response | Promise<Response>;

/** A request for the event stream, and whether the stream it was answered with is still open. */
export interface StreamRequest extends SentRequest {
  open: boolean;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** An Error body as the service writes it. */
export const refusal = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  json(status, { code, message, status }, headers);

/** What the service sends when the events after the position asked for are no longer kept: a reset, then the end. */
export const eventsReset = (oldest: number) =>
  new Response(`event: reset\ndata: ${JSON.stringify({ oldest })}\n\n`, { status: 200, headers: { 'content-type': 'text/event-stream' } });

/** As a browser's fetch does: a request aborted before its answer rejects with an AbortError. */
function abortable(answer: Answer, signal: AbortSignal | undefined): Promise<Response> {
  if (!signal) return Promise.resolve(answer);
  return new Promise<Response>((resolve, reject) => {
    const onAbort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(answer).then(resolve, reject);
  });
}

/**
 * The pets of the page's component tests, answered as the service answers `listPets` and `createPet`, and the event
 * stream (`GET /v1/events`) of every pet created. `next` overrides the next answer, for refusals and answers that are
 * held back; `nextStream` the next stream request's. Every request is recorded: the stream's in `streams`, apart, so
 * that a test of the list counts the list's alone.
 */
export class PetService {
  readonly sent: SentRequest[] = [];
  readonly streams: StreamRequest[] = [];
  private readonly queued: Array<() => Answer> = [];
  private readonly queuedStreams: Array<(open: () => Response) => Answer> = [];
  /** The pets created, in the order of their events: an event's position is its index plus one. */
  private readonly created: Pet[] = [];
  /** Each open stream's way to send text, and to end. */
  private readonly feeds = new Set<{ send(text: string): void; end(): void }>();
  private nextId: number;

  constructor(readonly pets: Pet[] = []) {
    this.nextId = Math.max(0, ...pets.map((pet) => pet.id)) + 1;
  }

  /** The answer to the next request, instead of the service's. */
  next(answer: () => Answer): this {
    this.queued.push(answer);
    return this;
  }

  /** The answer to the next request for the event stream; `open` answers it as the service would. */
  nextStream(answer: (open: () => Response) => Answer): this {
    this.queuedStreams.push(answer);
    return this;
  }

  /** A pet added by someone else (another tab, the CLI): stored, and sent to every open stream. */
  addElsewhere(pet: NewPet): Pet {
    return this.store(pet);
  }

  /** A comment line, as the service sends every 10 s to keep a quiet stream open. */
  keepAlive(): void {
    for (const feed of this.feeds) feed.send(': keep-alive\n\n');
  }

  /** Ends every open stream, as an instance that stops does. */
  dropStreams(): void {
    for (const feed of [...this.feeds]) feed.end();
  }

  /** The streams open now: the page's, until it closes them or they are dropped. */
  readonly openStreams = () => this.streams.filter(({ open }) => open);

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request = { method: init.method ?? 'GET', url, headers: new Headers(init.headers), body, signal: init.signal ?? undefined };
    if (url.pathname.endsWith('/events')) {
      const stream = { ...request, open: false };
      this.streams.push(stream);
      const answer = this.queuedStreams.shift() ?? ((open) => open());
      return abortable(answer(() => this.stream(stream)), init.signal ?? undefined);
    }
    this.sent.push(request);
    const queued = this.queued.shift();
    const answer = queued ? queued() : init.method === 'POST' ? this.create(body as NewPet) : this.list(url);
    return abortable(answer, init.signal ?? undefined);
  };

  private list(url: URL): Response {
    const query = (name: string) => url.searchParams.get(name) ?? undefined;
    const after = Number(query('cursor') ?? 0);
    const limit = Number(query('limit') ?? 20);
    const [status, name, category] = [query('status'), query('name')?.toLowerCase(), query('categoryId')];
    // The interface's filters, written apart from the page's own so that the page is not checked against itself: a
    // name anywhere in the pet's name, whatever the case.
    const matching = this.pets.filter(
      (pet) =>
        pet.id > after &&
        (status === undefined || pet.status === status) &&
        (category === undefined || pet.categoryId === Number(category)) &&
        (name === undefined || pet.name.toLowerCase().includes(name)),
    );
    const page = matching.slice(0, limit);
    const more = matching.length > limit;
    const next = new URL(url);
    next.searchParams.set('cursor', String(page.at(-1)?.id));
    return json(200, page, more ? { link: `<${next.href}>; rel="next"` } : {});
  }

  private create(pet: NewPet): Response {
    const created = this.store(pet);
    return json(201, created, { location: `/v1/pets/${created.id}` });
  }

  private store(pet: NewPet): Pet {
    const created = { status: 'available', ...pet, id: this.nextId++ } as Pet;
    this.pets.push(created);
    this.created.push(created);
    for (const feed of this.feeds) feed.send(eventMessage(this.created.length, created));
    return created;
  }

  /**
   * An open stream, as the service writes it: the events after `after`, or, without one, the position it starts
   * after; then each pet as it is created, until the request is aborted or the stream dropped.
   */
  private stream(request: StreamRequest): Response {
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const feed = {
      send: (text: string) => controller.enqueue(encoder.encode(text)),
      end: () => {
        closed();
        controller.close();
      },
    };
    const closed = () => {
      request.open = false;
      this.feeds.delete(feed);
    };
    const body = new ReadableStream<Uint8Array>({ start: (started) => void (controller = started), cancel: closed });
    // As a browser's fetch does: an abort fails the read under way.
    request.signal?.addEventListener(
      'abort',
      () => {
        if (!request.open) return;
        closed();
        controller.error(new DOMException('The operation was aborted.', 'AbortError'));
      },
      { once: true },
    );
    request.open = true;
    this.feeds.add(feed);
    const after = request.url.searchParams.get('after');
    if (after === null) feed.send(`id: ${this.created.length}\n\n`);
    else this.created.slice(Number(after)).forEach((pet, index) => feed.send(eventMessage(Number(after) + index + 1, pet)));
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }
}

/** One `pet.created` event at `position`, as the service writes it. */
const eventMessage = (position: number, pet: Pet) =>
  `id: ${position}\nevent: pet.created\ndata: ${JSON.stringify({ type: 'pet.created', timestamp: new Date().toISOString(), data: pet })}\n\n`;
