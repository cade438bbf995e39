import { once } from 'node:events';
import { promises as dns } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { sendWebhook, type WebhookRequest } from './webhook-sender';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local endpoint that records what reaches it and answers with the given handler. */
async function endpoint(answer: (response: ServerResponse) => void = (response) => response.end()) {
  const requests: Received[] = [];
  let connections = 0;
  let open = 0;
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    requests.push({ method: incoming.method, url: incoming.url, headers: incoming.headers, body: Buffer.concat(chunks).toString() });
    answer(response);
  });
  const whenClosed: Array<() => void> = [];
  server.on('connection', (socket) => {
    connections++;
    open++;
    socket.once('close', () => {
      open--;
      if (open === 0) for (const resume of whenClosed.splice(0)) resume();
    });
  });
  await listen(server);
  /** Once every connection is closed on the endpoint's side, which may come a moment after the sender's: waited for, not timed. */
  const allClosed = () => (open === 0 ? Promise.resolve() : new Promise<void>((resume) => whenClosed.push(resume)));
  return { server, requests, connections: () => connections, open: () => open, allClosed, url: `http://127.0.0.1:${port(server)}/hooks?x=1` };
}

async function listen(server: Server | TcpServer, host = '127.0.0.1'): Promise<void> {
  server.listen(0, host);
  await once(server, 'listening');
  servers.push(server);
}

const port = (server: Server | TcpServer) => (server.address() as AddressInfo).port;
const servers: (Server | TcpServer)[] = [];
const sockets = new Set<Socket>();

afterEach(async () => {
  jest.restoreAllMocks();
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(
    servers.splice(0).map((server) => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      return new Promise((closed) => server.close(closed));
    }),
  );
});

describe(sendWebhook.name, () => {
  const attempt = (overrides: Partial<WebhookRequest>): WebhookRequest => ({
    url: 'http://127.0.0.1:1/',
    headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': '1795716000', 'webhook-signature': 'v1,c2lnbmF0dXJl' },
    body: '{"type":"pet.created","data":{"name":"Rex \u00e9t\u00e9"}}',
    timeoutMs: 2000,
    allowPrivate: true,
    ...overrides,
  });

  it.each([200, 202, 204, 299])('reports HTTP %d as delivered', async (status) => {
    const target = await endpoint((response) => response.writeHead(status).end());
    await expect(sendWebhook(attempt({ url: target.url }))).resolves.toEqual({
      outcome: 'delivered',
      statusCode: status,
      error: null,
      durationMs: expect.any(Number),
    });
  });

  it('sends the body and the headers exactly, as a JSON POST', async () => {
    const target = await endpoint();
    const sent = attempt({ url: target.url });
    await sendWebhook(sent);
    expect(target.requests).toEqual([
      {
        method: 'POST',
        url: '/hooks?x=1',
        headers: expect.objectContaining({
          ...sent.headers,
          'content-type': 'application/json',
          'user-agent': 'petstore-webhooks/1',
          'content-length': String(Buffer.byteLength(sent.body)),
        }),
        body: sent.body,
      },
    ]);
  });

  it.each([
    [400, 'HTTP 400'],
    [410, 'HTTP 410'],
    [500, 'HTTP 500'],
    [503, 'HTTP 503'],
  ])('reports HTTP %d as failed, with the status', async (status, error) => {
    const target = await endpoint((response) => response.writeHead(status).end('{"secret":"not for the logs"}'));
    await expect(sendWebhook(attempt({ url: target.url }))).resolves.toMatchObject({ outcome: 'failed', statusCode: status, error });
  });

  it.each([301, 302, 307, 308])('does not follow a redirect (HTTP %d)', async (status) => {
    const elsewhere = await endpoint();
    const target = await endpoint((response) => response.writeHead(status, { location: elsewhere.url }).end());
    await expect(sendWebhook(attempt({ url: target.url }))).resolves.toMatchObject({
      outcome: 'failed',
      statusCode: status,
      error: `redirect not followed (HTTP ${status})`,
    });
    expect(elsewhere.connections()).toBe(0);
  });

  it('gives up at the deadline when the endpoint never answers, and closes the connection', async () => {
    const target = await endpoint(() => undefined);
    const result = await sendWebhook(attempt({ url: target.url, timeoutMs: 300 }));
    expect(result).toMatchObject({ outcome: 'failed', statusCode: null, error: 'timeout after 300 ms' });
    // Ended by the deadline (its error says so; nothing else could end it), and not before it.
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    await target.allClosed();
  });

  it('gives up at the deadline when a connection is accepted but nothing is ever said', async () => {
    const silent = createTcpServer((socket) => sockets.add(socket));
    await listen(silent);
    await expect(sendWebhook(attempt({ url: `http://127.0.0.1:${port(silent)}/`, timeoutMs: 300 }))).resolves.toMatchObject({
      outcome: 'failed',
      error: 'timeout after 300 ms',
    });
  });

  it('reports a closed port as connection refused', async () => {
    const closed = await endpoint();
    const url = closed.url;
    await new Promise((done) => closed.server.close(done));
    await expect(sendWebhook(attempt({ url }))).resolves.toMatchObject({ outcome: 'failed', statusCode: null, error: 'connection refused' });
  });

  it('reports the first reason when every address of the host fails', async () => {
    const closed = await endpoint();
    const closedPort = port(closed.server);
    await new Promise((done) => closed.server.close(done));
    jest.spyOn(dns, 'lookup').mockResolvedValue([
      { address: '127.0.0.1', family: 4 },
      { address: '127.0.0.2', family: 4 },
    ] as never);
    await expect(sendWebhook(attempt({ url: `http://hooks.example.com:${closedPort}/` }))).resolves.toMatchObject({ error: 'connection refused' });
  });

  it('reports a connection closed without an answer', async () => {
    const rude = createTcpServer((socket) => socket.once('data', () => socket.destroy()));
    await listen(rude);
    await expect(sendWebhook(attempt({ url: `http://127.0.0.1:${port(rude)}/` }))).resolves.toMatchObject({
      outcome: 'failed',
      error: 'connection closed before a response',
    });
  });

  it('keeps the connection of an answer read to its end for the next attempt, and closes one cut short', async () => {
    const target = await endpoint((response) => response.writeHead(204).end());
    for (let i = 0; i < 3; i += 1) await expect(sendWebhook(attempt({ url: target.url }))).resolves.toMatchObject({ outcome: 'delivered' });
    expect(target.connections()).toBe(1);
    const endless = await endpoint((response) => {
      response.writeHead(200);
      response.write(Buffer.alloc(64 * 1024, 'x'));
    });
    await expect(sendWebhook(attempt({ url: endless.url }))).resolves.toMatchObject({ outcome: 'delivered' });
    await endless.allClosed();
  });

  it('reads no more than a few KiB of an endless answer, and does not wait for its end', async () => {
    let written = 0;
    const target = await endpoint((response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) written += chunk.length;
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });
    const result = await sendWebhook(attempt({ url: target.url, timeoutMs: 5000 }));
    // Delivered, not timed out: it did not wait for the end of an answer that has none.
    expect(result).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('takes the status of an answer whose body trickles on past the deadline', async () => {
    const target = await endpoint((response) => {
      response.writeHead(500);
      const drip = setInterval(() => (response.destroyed ? clearInterval(drip) : response.write('.')), 20);
    });
    const result = await sendWebhook(attempt({ url: target.url, timeoutMs: 300 }));
    // The status, not the deadline's timeout: the body still trickling did not hold the attempt.
    expect(result).toMatchObject({ outcome: 'failed', statusCode: 500, error: 'HTTP 500' });
  });

  it('refuses a private address unless allowed, without connecting', async () => {
    const target = await endpoint();
    await expect(sendWebhook(attempt({ url: target.url, allowPrivate: false }))).resolves.toMatchObject({
      outcome: 'failed',
      statusCode: null,
      error: 'address refused: webhook address 127.0.0.1 is a loopback/private/link-local address; set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true to allow it',
    });
    expect(target.connections()).toBe(0);
  });

  it('reaches a bracketed IPv6 literal, and refuses it as loopback unless allowed', async () => {
    const server = createServer((_incoming, response) => response.writeHead(204).end());
    await listen(server, '::1');
    const url = `http://[::1]:${port(server)}/`;
    await expect(sendWebhook(attempt({ url }))).resolves.toMatchObject({ outcome: 'delivered', statusCode: 204 });
    await expect(sendWebhook(attempt({ url, allowPrivate: false }))).resolves.toMatchObject({ error: expect.stringMatching(/^address refused: webhook address ::1 is/) });
  });

  it('connects to the very addresses it checked, not to a second DNS answer', async () => {
    const target = await endpoint();
    const lookup = jest.spyOn(dns, 'lookup').mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);
    const url = target.url.replace('127.0.0.1', 'hooks.example.com');
    await expect(sendWebhook(attempt({ url }))).resolves.toMatchObject({ outcome: 'delivered' });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(target.requests[0].headers.host).toBe(`hooks.example.com:${port(target.server)}`);

    await expect(sendWebhook(attempt({ url, allowPrivate: false }))).resolves.toMatchObject({
      error: expect.stringMatching(/^address refused: webhook host "hooks.example.com" resolves to 127.0.0.1/),
    });
    expect(target.requests).toHaveLength(1);
  });

  it('speaks TLS to an https URL, naming the host while connecting to its checked address', async () => {
    const firstBytes: Buffer[] = [];
    const tls = createTcpServer((socket) => {
      sockets.add(socket);
      socket.once('data', (chunk) => {
        firstBytes.push(chunk);
        socket.destroy();
      });
    });
    await listen(tls);
    jest.spyOn(dns, 'lookup').mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);
    const result = await sendWebhook(attempt({ url: `https://hooks.example.com:${port(tls)}/` }));
    expect(result.outcome).toBe('failed');
    // A TLS handshake record (0x16) carrying the host in its server name extension, and no plain HTTP.
    expect(firstBytes[0][0]).toBe(0x16);
    expect(firstBytes[0].includes('hooks.example.com')).toBe(true);
    expect(firstBytes[0].includes('POST')).toBe(false);
  });

  it('stops when its signal is aborted', async () => {
    const target = await endpoint(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await sendWebhook(attempt({ url: target.url, signal: controller.signal }));
    // Cancelled, not timed out: the signal ended it.
    expect(result).toMatchObject({ outcome: 'failed', statusCode: null, error: 'cancelled' });
  });

  it('does not start when its signal is already aborted', async () => {
    const target = await endpoint();
    await expect(sendWebhook(attempt({ url: target.url, signal: AbortSignal.abort() }))).resolves.toMatchObject({ error: 'cancelled' });
    expect(target.connections()).toBe(0);
  });

  it.each([
    ['an invalid URL', 'not a url', /Invalid URL/],
    ['another scheme', 'ftp://127.0.0.1/', /unsupported scheme ftp:/],
  ])('reports %s as failed rather than throwing', async (_label, url, error) => {
    await expect(sendWebhook(attempt({ url }))).resolves.toMatchObject({ outcome: 'failed', error: expect.stringMatching(error) });
  });
});
