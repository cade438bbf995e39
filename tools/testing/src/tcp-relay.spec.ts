import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './free-port';
import { TcpRelay } from './tcp-relay';

/** An echo server: what a dependency answers. */
async function startEcho(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.pipe(socket));
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, port };
}

/** Sends `text` and resolves with what came back, or with the socket's fate if it ended first. */
function exchange(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (chunk) => resolve(chunk.toString()));
    socket.once('error', (error) => resolve(`error: ${error.message}`));
    socket.once('close', () => resolve('closed'));
    socket.write(text);
  });
}

/** Whether `promise` is still pending after `ms` (a silence is judged by nothing happening, however long we look). */
const stillPending = async (promise: Promise<unknown>, ms: number) =>
  (await Promise.race([promise.then(() => false), new Promise((resolve) => setTimeout(() => resolve(true), ms))])) as boolean;

describe(TcpRelay.name, () => {
  let echo: { server: Server; port: number };
  let sut: TcpRelay;
  const sockets: Socket[] = [];
  const open = async () => {
    const socket = connect(sut.port, '127.0.0.1');
    sockets.push(socket);
    return socket;
  };

  beforeEach(async () => {
    echo = await startEcho();
    sut = new TcpRelay(await freePort(), { host: '127.0.0.1', port: echo.port });
    await sut.start();
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await sut.stop();
    echo.server.close();
  });

  it('relays both ways', async () => {
    const socket = await open();
    await once(socket, 'connect');
    await expect(exchange(socket, 'ping')).resolves.toBe('ping');
  });

  // Sessions and CI run as root, where iptables works (the kernel drops the packets); elsewhere the relay holds them.
  const expectedMode = process.getuid?.() === 0 ? 'iptables' : 'relay';

  it(`silences an open connection and a new one with no reset (${expectedMode}), and delivers once healed`, async () => {
    const before = await open();
    await once(before, 'connect');
    await expect(exchange(before, 'one')).resolves.toBe('one');

    expect(sut.silence()).toBe(expectedMode);
    const onOpen = exchange(before, 'two');
    const fresh = await open();
    let freshConnected = false;
    fresh.once('connect', () => (freshConnected = true));
    const onFresh = exchange(fresh, 'three');
    expect(await Promise.all([stillPending(onOpen, 1_500), stillPending(onFresh, 1_500)])).toEqual([true, true]);
    // A black hole drops the new connection's SYN: it is not even accepted.
    if (expectedMode === 'iptables') expect(freshConnected).toBe(false);

    sut.heal();
    // After a black hole, TCP retransmits on its own schedule: seconds, not minutes.
    await expect(onOpen).resolves.toBe('two');
    await expect(onFresh).resolves.toBe('three');
  }, 60_000);

  it('refuses connections while stopped and relays again once started on the same port', async () => {
    await sut.stop();
    const refused = await open();
    await expect(exchange(refused, 'x')).resolves.toMatch(/ECONNREFUSED|closed/);
    await sut.start();
    const again = await open();
    await expect(exchange(again, 'back')).resolves.toBe('back');
  });
});
