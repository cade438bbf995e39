import { createServer, type Server } from 'node:net';
import { freePort } from './free-port';

const listen = (server: Server, port: number) =>
  new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));

describe('freePort', () => {
  it('never hands out a port twice in one process', async () => {
    // Drawn at random from ~12,800 ports, 2,000 picks would repeat one about 150 times.
    const ports: number[] = [];
    for (let pick = 0; pick < 2_000; pick++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('never hands out a port twice to calls under way at once', async () => {
    const ports = await Promise.all(Array.from({ length: 2_000 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('hands out ports the kernel never picks for listen(0) or outgoing connections', async () => {
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    expect(ports.every((port) => port >= 20_000 && port < 32_768)).toBe(true);
  });

  it('hands out ports that can be listened on, one after another', async () => {
    const servers = [];
    try {
      for (let pick = 0; pick < 200; pick++) {
        const server = createServer();
        await listen(server, await freePort());
        servers.push(server);
      }
      expect(servers).toHaveLength(200);
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });
});
