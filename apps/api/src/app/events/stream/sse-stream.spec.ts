import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { PetStatus } from '@petstore/contract';
import type { LoggedEvent } from '../log/pet-event-log';
import { KEEP_ALIVE, SseStream, sseEvent, ssePosition, sseReset, type StreamLimits } from './sse-stream';
import { untilHolds } from '../../../../test/support/until';

const event = (position: number, name = `Pet ${position}`): LoggedEvent => ({
  position,
  type: 'pet.created',
  createdAt: Date.UTC(2026, 11, 6, 7, 0, 0, position),
  pet: { id: position, name, categoryId: 2, status: PetStatus.Available },
});

/** A server whose one request becomes a stream; the test drives it. */
async function serve(limits: StreamLimits | undefined): Promise<{ server: Server; url: string; stream: () => Promise<{ sse: SseStream; served: ServerResponse }> }> {
  let opened!: (value: { sse: SseStream; served: ServerResponse }) => void;
  const stream = new Promise<{ sse: SseStream; served: ServerResponse }>((resolve) => (opened = resolve));
  const server = createServer((_request, served) => opened({ sse: SseStream.begin(served, { 'x-request-id': 'r1' }, limits), served }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, stream: () => stream };
}

/** A client request; its body as it arrives. */
function connect(url: string): Promise<{ response: IncomingMessage; body: () => string; ended: Promise<'end' | 'aborted'> }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      const ended = new Promise<'end' | 'aborted'>((done) => {
        response.once('end', () => done('end'));
        response.once('aborted', () => done('aborted'));
        response.once('error', () => done('aborted'));
      });
      resolve({ response, body: () => body, ended });
    })
      .on('error', reject)
      .end();
  });
}

describe(SseStream.name, () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  const open = async (limits: StreamLimits = { keepAliveMs: 60_000, maxUnsentBytes: 1 << 20 }) => {
    const { server, url, stream } = await serve(limits);
    servers.push(server);
    const client = await connect(url);
    return { ...client, ...(await stream()) };
  };

  it('writes each event as id, event and the webhook body on one data line, after a first comment', async () => {
    const { response, body, sse } = await open();
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-request-id': 'r1',
    });
    expect(sse.deliver([event(41), event(42, 'Line\nbreak "quoted"')])).toBe(true);
    await untilHolds(() => body().split('\n\n').length === 4, 'the two events');
    expect(body()).toBe(
      ': keep-alive\n\n' +
        'id: 41\nevent: pet.created\ndata: {"type":"pet.created","timestamp":"2026-12-06T07:00:00.041Z","data":{"id":41,"name":"Pet 41","categoryId":2,"status":"available"}}\n\n' +
        'id: 42\nevent: pet.created\ndata: {"type":"pet.created","timestamp":"2026-12-06T07:00:00.042Z","data":{"id":42,"name":"Line\\nbreak \\"quoted\\"","categoryId":2,"status":"available"}}\n\n',
    );
    expect(sseEvent(event(7))).toMatch(/^id: 7\nevent: pet.created\ndata: \{[^\n]*\}\n\n$/);
    expect(sseReset(12)).toBe('event: reset\ndata: {"oldest":12}\n\n');
  });

  it('names the position it starts after as an id without data, which no client takes for an event', async () => {
    const { body, sse } = await open();
    sse.startsAfter(40);
    sse.deliver([event(41)]);
    await untilHolds(() => body().split('\n\n').length === 4, 'the position and the event');
    expect(body().split('\n\n').slice(0, 2)).toEqual([': keep-alive', 'id: 40']);
    expect(ssePosition(9)).toBe('id: 9\n\n');
  });

  it('writes a comment every keep-alive period, and stops once the client is gone', async () => {
    const { body, response, served } = await open({ keepAliveMs: 30, maxUnsentBytes: 1 << 20 });
    await untilHolds(() => body().split(KEEP_ALIVE).length >= 4, 'three comments after the first');
    expect(body().replaceAll(KEEP_ALIVE, '')).toBe('');
    const closed = new Promise((resolve) => served.once('close', resolve));
    response.destroy();
    await closed;
    const write = jest.spyOn(served, 'write');
    await sleep(150);
    expect(write).not.toHaveBeenCalled();
  });

  it('answers false once its client has not taken more than the bound, and drops the connection when let go for it', async () => {
    const { response, sse, ended } = await open({ keepAliveMs: 60_000, maxUnsentBytes: 64 * 1024 });
    // The client reads nothing more; the kernel's buffers fill, then the response's own.
    response.pause();
    const big = 'x'.repeat(2_000);
    let delivered = 0;
    while (sse.deliver([event(delivered + 1, big)])) {
      delivered += 1;
      if (delivered > 100_000) throw new Error('never over the bound');
      if (delivered % 50 === 0) await sleep(1);
    }
    expect(delivered).toBeGreaterThan(0);
    sse.closed('behind');
    response.resume();
    expect(await ended).toBe('aborted');
  });

  it('lets a stream go, by default, once its client has not taken a mebibyte', async () => {
    const { server, url, stream } = await serve(undefined);
    servers.push(server);
    const { response } = await connect(url);
    const { sse, served } = await stream();
    response.pause();
    const big = 'x'.repeat(16 * 1024);
    for (let position = 1; sse.deliver([event(position, big)]); position += 1) {
      if (position > 10_000) throw new Error('never over the bound');
      if (position % 16 === 0) await sleep(1);
    }
    expect(served.writableLength).toBeGreaterThan(1024 * 1024);
  });

  it('ends cleanly when the service stops, after what it had sent', async () => {
    const { body, sse, ended } = await open();
    sse.deliver([event(1)]);
    sse.closed('stopping');
    expect(await ended).toBe('end');
    expect(body()).toBe(`${KEEP_ALIVE}${sseEvent(event(1))}`);
  });
});
