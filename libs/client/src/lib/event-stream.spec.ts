import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { PetStatus } from '@petstore/contract';
import { AbortError, ConnectionError, PetstoreApiError, ServerError, TimeoutError, UnauthorizedError } from './errors';
import { type ConnectionChange, EventsResetError, type StreamedEvent } from './event-stream';
import { PetstoreClient } from './petstore-client';

const KEY = 'pk_events_canary_5d1e';

const body = (id: number) => JSON.stringify({ type: 'pet.created', timestamp: '2026-12-06T09:00:00.000Z', data: { id, name: `Pet ${id}`, categoryId: 1, status: 'available' } });
const event = (id: number, type = 'pet.created') => `id: ${id}\nevent: ${type}\ndata: ${body(id)}\n\n`;
const expected = (id: number): StreamedEvent => ({
  id,
  type: 'pet.created',
  timestamp: '2026-12-06T09:00:00.000Z',
  data: { id, name: `Pet ${id}`, categoryId: 1, status: PetStatus.Available },
});

/** One connection as the fake service sees it: the request, and its response to write to. */
interface Connection {
  request: IncomingMessage;
  response: ServerResponse;
  closed: Promise<void>;
}

/** A service whose every request waits for the test to answer it, in order. */
async function fakeService() {
  const waiting: Connection[] = [];
  const wanted: Array<(connection: Connection) => void> = [];
  const server: Server = createServer((request, response) => {
    const connection = { request, response, closed: new Promise<void>((resolve) => response.once('close', () => resolve())) };
    const taker = wanted.shift();
    if (taker) taker(connection);
    else waiting.push(connection);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    /** The next request the client makes. */
    next: () => new Promise<Connection>((resolve) => (waiting.length > 0 ? resolve(waiting.shift() as Connection) : wanted.push(resolve))),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const stream = (response: ServerResponse, text = ': keep-alive\n\n') => {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
  response.write(text);
};

const refuse = (response: ServerResponse, status: number, headers: Record<string, string> = {}) =>
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ code: status === 401 ? 'unauthorized' : 'service_unavailable', message: `Refused ${status}.`, status }));

/** Takes events from the iterator one at a time, so that the test can act between them. */
function consume(events: AsyncGenerator<StreamedEvent>) {
  const taken: StreamedEvent[] = [];
  const ended = (async () => {
    for await (const one of events) taken.push(one);
  })();
  return { taken, ended: ended.then(() => undefined, (error: unknown) => error) };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('PetstoreClient.events', () => {
  let service: Awaited<ReturnType<typeof fakeService>>;
  const controllers: AbortController[] = [];
  const changes: ConnectionChange[] = [];
  const client = (options: Partial<ConstructorParameters<typeof PetstoreClient>[0]> = {}) =>
    new PetstoreClient({ baseUrl: `${service.origin}/v1`, apiKey: KEY, maxRetryDelayMs: 50, userAgent: 'spec/1', ...options });
  const follow = (sut: PetstoreClient, after?: number | null, idleTimeoutMs?: number) => {
    const controller = new AbortController();
    controllers.push(controller);
    return { controller, ...consume(sut.events({ after }, { signal: controller.signal, onConnectionChange: (change) => changes.push(change), idleTimeoutMs })) };
  };

  beforeEach(async () => {
    service = await fakeService();
    changes.splice(0);
  });
  afterEach(async () => {
    for (const controller of controllers.splice(0)) controller.abort();
    await service.close();
  });

  it('opens the stream with the key, yields each event typed with its position, and reconnects after the last one when it ends', async () => {
    const { taken } = follow(client());
    const first = await service.next();
    expect(first.request.url).toBe('/v1/events');
    expect(first.request.headers).toMatchObject({ authorization: `Bearer ${KEY}`, accept: 'text/event-stream', 'user-agent': 'spec/1' });
    expect(first.request.headers['last-event-id']).toBeUndefined();
    stream(first.response);
    first.response.write(event(41) + event(42));
    await until(() => taken.length === 2, 'two events');
    expect(taken).toEqual([expected(41), expected(42)]);
    // An instance stopping ends its streams: the client opens it again after the last event it yielded.
    first.response.end();
    const second = await service.next();
    expect(second.request.url).toBe('/v1/events?after=42');
    stream(second.response, event(43));
    await until(() => taken.length === 3, 'the event after');
    expect(taken.map(({ id }) => id)).toEqual([41, 42, 43]);
    expect(changes.map(({ state }) => state)).toEqual(['open', 'reconnecting', 'open']);
    expect(changes[1]).toEqual({ state: 'reconnecting', error: expect.any(ConnectionError), delayMs: expect.any(Number), attempt: 1 });
    expect((changes[1] as Extract<ConnectionChange, { state: 'reconnecting' }>).error.message).toBe('The service ended the event stream.');
  });

  it('moves its position on past events of types it passes over, so that a reconnect does not send them back', async () => {
    const { taken } = follow(client());
    const first = await service.next();
    stream(first.response, event(1, 'pet.renamed') + event(2, 'pet.renamed') + event(3, 'pet.renamed'));
    first.response.end();
    const second = await service.next();
    expect(second.request.url).toBe('/v1/events?after=3');
    stream(second.response, event(4));
    await until(() => taken.length === 1, 'the event after');
    expect(taken).toEqual([expected(4)]);
  });

  it('reads an event split anywhere between pieces of the stream, a character of its name too', async () => {
    const { taken } = follow(client());
    const first = await service.next();
    const bytes = Buffer.from(`id: 5\nevent: pet.created\ndata: ${body(5).replace('Pet 5', 'Zoë 🐕')}\n\n`);
    const split = bytes.indexOf(Buffer.from('🐕')) + 2;
    first.response.writeHead(200, { 'content-type': 'text/event-stream' });
    first.response.write(bytes.subarray(0, split));
    await new Promise((resolve) => setTimeout(resolve, 20));
    first.response.write(bytes.subarray(split));
    await until(() => taken.length === 1, 'the event');
    expect(taken[0].data.name).toBe('Zoë 🐕');
  });

  it('keeps a stream that opened past the time allowed to open it, and leaves no listener on the signal per reconnect', async () => {
    // Time to open that no answer from this process's own server takes, however busy the machine; then longer than it.
    const { controller, taken } = follow(client({ timeoutMs: 2_000 }));
    const first = await service.next();
    stream(first.response, event(1));
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    first.response.write(event(2));
    await until(() => taken.length === 2, 'the event after the time to open');
    expect(changes).toEqual([{ state: 'open' }]);
    let current = first;
    for (let drop = 0; drop < 3; drop += 1) {
      current.response.destroy();
      await until(() => changes.length === 2 + drop * 2, 'reconnecting');
      current = await service.next();
      stream(current.response);
      await until(() => changes.length === 3 + drop * 2, 'open again');
    }
    expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(2);
  });

  it('resumes from the position a stream without one starts after, when it drops before its first event', async () => {
    const { taken } = follow(client());
    const first = await service.next();
    stream(first.response, ': keep-alive\n\nid: 40\n\n');
    await until(() => changes.length === 1, 'open');
    // Nothing was yielded, but the position was named: a reconnect takes what was created meanwhile.
    first.response.destroy();
    const second = await service.next();
    expect(second.request.url).toBe('/v1/events?after=40');
    stream(second.response, event(41));
    await until(() => taken.length === 1, 'the event created meanwhile');
    expect(taken).toEqual([expected(41)]);
  });

  it('starts after the position given, and yields no event twice when the service repeats one', async () => {
    const { taken } = follow(client(), 7);
    const first = await service.next();
    expect(first.request.url).toBe('/v1/events?after=7');
    stream(first.response, event(7) + event(8) + event(8) + event(9) + 'id: 3\n\n');
    first.response.end();
    const second = await service.next();
    // A position named after events does not send the client back.
    expect(second.request.url).toBe('/v1/events?after=9');
    stream(second.response, event(9) + event(10));
    await until(() => taken.length === 3, 'three events');
    expect(taken.map(({ id }) => id)).toEqual([8, 9, 10]);
  });

  it('passes over event types it does not know, and comments', async () => {
    const { taken } = follow(client());
    const first = await service.next();
    stream(first.response, event(1, 'pet.renamed') + ': keep-alive\n\n' + `data: not an event\n\n` + event(2));
    await until(() => taken.length === 1, 'the known event');
    expect(taken).toEqual([expected(2)]);
  });

  it('waits as a 503 or 429 asks before opening again, and throws a refusal that waiting cannot mend', async () => {
    const { taken, ended } = follow(client({ maxRetryDelayMs: 5_000 }), 5);
    const first = await service.next();
    const refusedAt = Date.now();
    refuse(first.response, 503, { 'retry-after': '1' });
    const second = await service.next();
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(900);
    expect(changes).toEqual([{ state: 'reconnecting', error: expect.any(ServerError), delayMs: 1_000, attempt: 1 }]);
    refuse(second.response, 429, { 'retry-after': '0' });
    const third = await service.next();
    expect(changes[1]).toMatchObject({ state: 'reconnecting', attempt: 2 });
    refuse(third.response, 401);
    const error = await ended;
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).message).toBe('Refused 401.');
    expect(taken).toEqual([]);
  });

  it('backs off further with each failed attempt in a row, and starts over once a stream opened', async () => {
    const random = jest.spyOn(Math, 'random').mockReturnValue(1);
    try {
      follow(client({ maxRetryDelayMs: 60_000 }));
      for (let attempt = 0; attempt < 3; attempt += 1) refuse((await service.next()).response, 502);
      const opened = await service.next();
      stream(opened.response);
      await until(() => changes.length === 4, 'open');
      opened.response.destroy();
      await until(() => changes.length === 5, 'dropped');
    } finally {
      random.mockRestore();
    }
    expect(changes.map((change) => (change.state === 'open' ? 'open' : change.delayMs))).toEqual([250, 500, 1_000, 'open', 250]);
  });

  it('throws EventsResetError, naming the oldest position kept, when the events after its position are gone', async () => {
    const { ended } = follow(client(), 3);
    const first = await service.next();
    stream(first.response, 'event: reset\ndata: {"oldest":120}\n\n');
    first.response.end();
    const error = (await ended) as EventsResetError;
    expect(error).toBeInstanceOf(EventsResetError);
    expect({ name: error.name, after: error.after, oldest: error.oldest, message: error.message }).toEqual({
      name: 'EventsResetError',
      after: 3,
      oldest: 120,
      message: 'The service no longer keeps the events after 3 (the oldest it keeps is 120): some may have been missed.',
    });
  });

  it('refuses what is not an event stream, or an event it cannot read, rather than reconnecting for ever', async () => {
    const cases: Array<[(response: ServerResponse) => void, RegExp]> = [
      [(response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>'), /HTTP 200 with text\/html, not an event stream/],
      [(response) => response.writeHead(200).end('hello'), /HTTP 200 with no content type, not an event stream/],
      [(response) => stream(response, `event: pet.created\ndata: ${body(1)}\n\n`), /without a position: id ""/],
      [(response) => stream(response, `id: 4\nevent: pet.created\ndata: ${'x'.repeat(300)}\n\n`), new RegExp(`data is not JSON: ${'x'.repeat(200)}$`)],
      [(response) => stream(response, 'id: x\nevent: pet.created\ndata: {}\n\n'), /without a position: id "x"/],
      [(response) => stream(response, 'id: 4\nevent: pet.created\ndata: {nope\n\n'), /data is not JSON: \{nope/],
      [(response) => stream(response, 'event: reset\ndata: {}\n\n'), /without naming the oldest event/],
    ];
    for (const [answer, message] of cases) {
      const { ended } = follow(client());
      answer((await service.next()).response);
      const error = await ended;
      expect(error).toBeInstanceOf(PetstoreApiError);
      expect(error).toMatchObject({ code: 'unexpected_response', message: expect.stringMatching(message) });
    }
  });

  it('takes a stream silent for longer than idleTimeoutMs for dead, and opens it again', async () => {
    follow(client(), 1, 200);
    const first = await service.next();
    stream(first.response);
    await first.closed;
    expect(changes).toEqual([{ state: 'open' }, { state: 'reconnecting', error: new TimeoutError(200), delayMs: expect.any(Number), attempt: 1 }]);
    expect((await service.next()).request.url).toBe('/v1/events?after=1');
  });

  it('reports a service it cannot reach as a ConnectionError that never quotes the key, and keeps trying', async () => {
    const unreachable = client({ fetch: () => Promise.reject(new TypeError(`fetch failed for ${KEY}`)) });
    follow(unreachable);
    await until(() => changes.length >= 2, 'two attempts');
    const { error } = changes[0] as Extract<ConnectionChange, { state: 'reconnecting' }>;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(`Could not reach ${service.origin}: fetch failed for [redacted]`);
    expect(inspect(error, { depth: null, showHidden: true })).not.toContain(KEY);
  });

  it('ends with an AbortError when its signal aborts, closing the open stream, and sends nothing for an aborted signal', async () => {
    const { controller, ended } = follow(client());
    const first = await service.next();
    stream(first.response);
    await until(() => changes.length === 1, 'open');
    const reason = new Error('enough');
    controller.abort(reason);
    expect(await ended).toEqual(expect.any(AbortError));
    expect(((await ended) as AbortError).cause).toBe(reason);
    await first.closed;
    const aborted = client().events({}, { signal: AbortSignal.abort() });
    await expect(aborted.next()).rejects.toBeInstanceOf(AbortError);
  });

  it('ends with an AbortError when its signal aborts during the wait before opening again', async () => {
    const { controller, ended } = follow(client({ maxRetryDelayMs: 60_000 }));
    refuse((await service.next()).response, 503, { 'retry-after': '60' });
    await until(() => changes.length === 1, 'waiting');
    controller.abort('stop');
    expect(await ended).toEqual(expect.any(AbortError));
    expect(((await ended) as AbortError).cause).toBe('stop');
  });

  it('closes the stream when the caller stops iterating', async () => {
    const events = client().events();
    const next = events.next();
    const first = await service.next();
    stream(first.response, event(1));
    expect((await next).value).toEqual(expected(1));
    await events.return();
    await first.closed;
  });

  it('gives up opening after the client timeout, and tries again', async () => {
    follow(client({ timeoutMs: 100 }));
    const first = await service.next();
    await first.closed;
    expect(changes[0]).toMatchObject({ state: 'reconnecting', error: new TimeoutError(100) });
    stream((await service.next()).response);
    await until(() => changes.length === 2, 'open');
  });
});
