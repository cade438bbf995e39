import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay between the service and its database, so that a test can take the database away (every connection
 * cut, new ones refused), make it hang, and bring it back on the same address, without touching the real server.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  /** While frozen, bytes are held in both directions, as if the database process were stopped (SIGSTOP). */
  private frozen = false;
  private held: Array<() => void> = [];

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      this.forward(client, upstream);
      this.forward(upstream, client);
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
  }

  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
    for (const release of this.held.splice(0)) release();
  }

  private forward(from: Socket, to: Socket): void {
    from.on('data', (chunk) => {
      if (!this.frozen) {
        to.write(chunk);
        return;
      }
      from.pause();
      this.held.push(() => {
        to.write(chunk);
        from.resume();
      });
    });
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
    this.server = undefined;
  }
}
