import { Agent, createServer, get, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { drainConnections } from './shutdown.hook';

describe(drainConnections.name, () => {
  let server: Server;
  let agent: Agent;
  let stopping: boolean;
  let port: number;

  const fetchOk = () =>
    new Promise<IncomingMessage>((resolve, reject) => get({ port, host: '127.0.0.1', agent }, resolve).on('error', reject).end());

  beforeEach(async () => {
    stopping = false;
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // What the service's onSend hook does once shutdown began.
    server = createServer((_request, response) => response.writeHead(200, stopping ? { connection: 'close' } : {}).end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => {
    agent.destroy();
    server.closeAllConnections();
    server.close();
  });

  it('refuses new connections at once, still answers a kept-alive connection, and returns once it closed', async () => {
    (await fetchOk()).resume();
    stopping = true;
    // A quiet time no test waits out: this drain can only return because the last connection closed.
    const drained = drainConnections(server, 10 * 60_000);

    const refused = await new Promise<string | undefined>((resolve) =>
      connect(port, '127.0.0.1')
        .on('connect', () => resolve(undefined))
        .on('error', (error: NodeJS.ErrnoException) => resolve(error.code)),
    );
    expect(refused).toBe('ECONNREFUSED');
    const reused = await fetchOk();
    reused.resume();
    expect(reused.statusCode).toBe(200);
    expect(reused.headers.connection).toBe('close');
    await drained;
    expect(server.listening).toBe(false);
  });

  it('leaves a connection that stays quiet open for the quiet time, then returns', async () => {
    const response = await fetchOk();
    response.resume();
    const { socket } = response;
    const startedAt = Date.now();

    await drainConnections(server, 200);

    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(190);
    expect(socket.destroyed).toBe(false);
  });
});
