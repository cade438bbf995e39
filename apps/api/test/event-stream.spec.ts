import { DatabaseConnection } from '../src/app/database/database-connection';
import { EventFeed, type FeedSubscriber } from '../src/app/events/stream/event-feed';
import { StreamCaps } from '../src/app/events/stream/stream-caps';
import { Metrics } from '../src/app/metrics/metrics';
import { ShutdownState } from '../src/app/http/shutdown-state';
import { expectError } from './support/assertions';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';
import { untilHolds } from './support/until';

/** One stream as a client reads it: its events parsed as they come, its comments counted, and its end. */
class StreamReader {
  events: Array<{ id?: string; event?: string; data?: string }> = [];
  comments = 0;
  startsAfter: number[] = [];
  ended = false;
  private readonly aborter = new AbortController();

  static async open(url: string, headers: Record<string, string> = AUTH): Promise<{ response: Response; reader: StreamReader }> {
    const reader = new StreamReader();
    const response = await fetch(url, { headers, signal: reader.aborter.signal });
    if (response.ok && response.body) void reader.read(response.body);
    return { response, reader };
  }

  close(): void {
    this.aborter.abort();
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) {
            this.comments += 1;
            continue;
          }
          const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
          // An id without data names the position the stream starts after, and is no event.
          if (fields.data === undefined) this.startsAfter.push(Number(fields.id));
          else this.events.push(fields);
        }
      }
    } catch {
      // Aborted by the test, or cut by the service.
    }
    this.ended = true;
  }

  get ids(): number[] {
    return this.events.map(({ id }) => Number(id));
  }
}

// behaviour.md, "Event stream": GET /v1/events on the real app, on the database this leg runs on.
describe('GET /v1/events', () => {
  let sut: TestApp;
  const readers: StreamReader[] = [];
  const open = async (query = '', headers: Record<string, string> = AUTH) => {
    const opened = await StreamReader.open(`${sut.origin}/v1/events${query}`, headers);
    readers.push(opened.reader);
    return opened;
  };
  const create = async (name: string) => {
    const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name, categoryId: 3 }) });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: number };
  };

  beforeAll(async () => {
    sut = await startApp({ env: { EVENT_STREAMS_PER_KEY: '3' } });
  });
  // A stream is let go when its socket's close reaches the service, which may come after the client has moved on:
  // the next test waits for that rather than meeting the per-key cap of 3 (whatever the machine's speed).
  afterEach(async () => {
    for (const reader of readers.splice(0)) reader.close();
    await untilHolds(() => sut.app.get(StreamCaps).size === 0, 'every stream of the test let go');
  });
  afterAll(() => sut.close());

  it('streams each pet created after it opened, as id, event and the webhook body, with the stream headers', async () => {
    await create('Before');
    const { response, reader } = await open();
    expect(response.status).toBe(200);
    expect(Object.fromEntries(['content-type', 'cache-control', 'x-accel-buffering'].map((name) => [name, response.headers.get(name)]))).toEqual({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    expect(response.headers.get('x-request-id')).toBeTruthy();
    await untilHolds(() => reader.comments >= 1, 'the first comment');
    const rex = await create('Rex');
    const tom = await create('Tom');
    await untilHolds(() => reader.events.length === 2, 'two events');
    const [first, second] = reader.events;
    expect(first.event).toBe('pet.created');
    expect(Number(second.id)).toBe(Number(first.id) + 1);
    expect(JSON.parse(first.data as string)).toEqual({ type: 'pet.created', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), data: { id: rex.id, name: 'Rex', categoryId: 3, status: 'available' } });
    expect(JSON.parse(second.data as string).data).toEqual({ id: tom.id, name: 'Tom', categoryId: 3, status: 'available' });
    // The stream's response is the handler's own: nothing else tries to answer the request.
    expect(sut.logs().filter(({ level }) => (level as number) >= 50)).toEqual([]);
  });

  it('names the position a stream without one starts after, before any event, so that a client resuming from it misses none', async () => {
    // Read by the feed, which streams of the test before kept running.
    const before = await create('Before');
    const { reader } = await open();
    await untilHolds(() => reader.startsAfter.length === 1, 'the starting position');
    reader.close();
    // Created while no stream was open: a client reconnecting with the position it was given gets it.
    const meanwhile = await create('Meanwhile');
    const { reader: resumed } = await open('', { ...AUTH, 'last-event-id': String(reader.startsAfter[0]) });
    await untilHolds(() => resumed.events.length === 1, 'the event created meanwhile');
    expect(JSON.parse(resumed.events[0].data as string).data.id).toBe(meanwhile.id);
    expect(meanwhile.id).toBeGreaterThan(before.id);
    // It started after the last event committed when it opened, which the feed of this instance may not have read yet.
    expect(reader.events).toEqual([]);
    // A stream opened after a position that has no backlog names that position back.
    const { reader: given } = await open(`?after=${resumed.events[0].id}`);
    await untilHolds(() => given.startsAfter.length === 1, 'the position given, named back');
    expect(given.startsAfter).toEqual([Number(resumed.events[0].id)]);
  });

  it('resumes after Last-Event-ID, or after, sending every event after it in order; the header wins', async () => {
    const { reader: live } = await open();
    for (const name of ['A', 'B', 'C']) await create(name);
    await untilHolds(() => live.events.length === 3, 'three events');
    const [a, b, c] = live.ids;
    const { reader: byHeader } = await open('', { ...AUTH, 'last-event-id': String(a) });
    const { reader: byQuery } = await open(`?after=${a}`);
    await untilHolds(() => byHeader.events.length === 2 && byQuery.events.length === 2, 'the backlog');
    expect(byHeader.ids).toEqual([b, c]);
    expect(byQuery.ids).toEqual([b, c]);
    // Started by their backlog, whose events carry their ids: no position after them would send their clients back.
    expect([...byHeader.startsAfter, ...byQuery.startsAfter]).toEqual([]);
    live.close();
    const { reader: both } = await open(`?after=${a}`, { ...AUTH, 'last-event-id': String(b) });
    await untilHolds(() => both.events.length === 1, 'the backlog after the header');
    expect(both.ids).toEqual([c]);
  });

  it('answers one reset naming the oldest position kept, and ends, for a position beyond the last one given', async () => {
    const { response, reader } = await open('?after=9007199254740991');
    expect(response.status).toBe(200);
    await untilHolds(() => reader.ended, 'the end');
    expect(reader.events).toEqual([{ event: 'reset', data: expect.stringMatching(/^\{"oldest":\d+\}$/) }]);
  });

  it('refuses a position that is not an event id, and unknown parameters, as JSON before any stream', async () => {
    expect(await expectError(await fetch(`${sut.origin}/v1/events`, { headers: { ...AUTH, 'last-event-id': 'abc' } }), 400, 'validation_failed')).toContain('Last-Event-ID');
    expect(await expectError(await fetch(`${sut.origin}/v1/events?after=-1`, { headers: AUTH }), 400, 'validation_failed')).toContain('`after`');
    expect(await expectError(await fetch(`${sut.origin}/v1/events?afer=1`, { headers: AUTH }), 400, 'validation_failed')).toContain('afer');
  });

  it('asks for an API key as every operation does, in JSON', async () => {
    expect((await expectError(await fetch(`${sut.origin}/v1/events`), 401, 'unauthorized')).length).toBeGreaterThan(0);
  });

  it('refuses more streams than a key may hold open with 429 and Retry-After, and takes one again once a stream closed', async () => {
    const opened = [await open(), await open(), await open()];
    const refused = await fetch(`${sut.origin}/v1/events`, { headers: AUTH });
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await expectError(refused, 429, 'rate_limited')).toBe('Too many event streams open for this API key: at most 3 at once. Close one, or retry in 5 s.');
    const gauge = async () => (await sut.app.get(Metrics).registry.getSingleMetricAsString('petstore_event_streams')).split('\n').at(-1);
    expect(await gauge()).toBe('petstore_event_streams 3');
    opened[0].reader.close();
    await untilHolds(() => sut.app.get(StreamCaps).size === 2, 'the closed stream let go');
    expect(await gauge()).toBe('petstore_event_streams 2');
    const again = await open();
    expect(again.response.status).toBe(200);
  });

  it('refuses a new stream while the service is stopping, 503 with Retry-After, so that another instance serves it', async () => {
    const shutdown = sut.app.get(ShutdownState);
    shutdown.stopping = true;
    try {
      const refused = await fetch(`${sut.origin}/v1/events`, { headers: AUTH });
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await expectError(refused, 503, 'service_unavailable')).toBe('The service is shutting down; open the stream again and another instance will serve it.');
    } finally {
      shutdown.stopping = false;
    }
  });

  it('refuses a new stream while the database cannot serve, though the feed holds recent events, 503 at once', async () => {
    const { reader } = await open();
    await untilHolds(() => reader.comments >= 1, 'a stream open, the feed running');
    await create('Recent');
    await untilHolds(() => reader.events.length === 1, 'an event the feed holds');
    const serving = jest.spyOn(sut.app.get(DatabaseConnection), 'serving', 'get').mockReturnValue(false);
    try {
      // Resuming after an event the feed holds needs no read of the database: only the check refuses it.
      await expectError(await fetch(`${sut.origin}/v1/events?after=${reader.ids[0]}`, { headers: AUTH }), 503, 'service_unavailable');
      await expectError(await fetch(`${sut.origin}/v1/events`, { headers: AUTH }), 503, 'service_unavailable');
    } finally {
      serving.mockRestore();
    }
  });

  it('answers a feed that cannot open the stream as an Error object, before any byte of a stream', async () => {
    const failing = jest.spyOn(sut.app.get(EventFeed), 'open').mockRejectedValue(new Error('unexpected'));
    try {
      await expectError(await fetch(`${sut.origin}/v1/events`, { headers: AUTH }), 500, 'internal_error');
    } finally {
      failing.mockRestore();
    }
  });

  it('ends a stream whose backlog failed after its first events, after them, so that its client resumes from the last one', async () => {
    const failing = jest.spyOn(sut.app.get(EventFeed), 'open').mockImplementation(async (_after, subscriber: FeedSubscriber) => {
      subscriber.deliver([{ position: 5, type: 'pet.created', createdAt: 0, pet: { id: 5, name: 'Rex', categoryId: 1, status: 'available' as never } }]);
      throw new Error('database away');
    });
    try {
      const { response, reader } = await open();
      expect(response.status).toBe(200);
      await untilHolds(() => reader.ended, 'the end');
      expect(reader.ids).toEqual([5]);
    } finally {
      failing.mockRestore();
    }
  });

  it('ends every stream when the service stops', async () => {
    const own = await startApp();
    try {
      const { reader } = await StreamReader.open(`${own.origin}/v1/events`);
      readers.push(reader);
      await untilHolds(() => reader.comments >= 1, 'the stream open');
      await own.close();
      await untilHolds(() => reader.ended, 'the end of the stream');
    } finally {
      await own.close().catch(() => undefined);
    }
  });
});
