import { connect, createServer, type Server, type Socket } from 'node:net';
import { blackHole, iptablesUsable } from './black-hole';

/** How a relay goes silent: the kernel drops its packets (iptables, as root), or the relay holds every byte. */
export type SilenceMode = 'iptables' | 'relay';

/**
 * A TCP relay in front of a dependency, on a port of its own, so that a test can fail it in the ways networks do
 * without touching the real server, nor the other tests that share it:
 * - `stop()` / `start()`: gone (every connection reset, new ones refused), then back on the same port;
 * - `freeze()` / `thaw()`: bytes held both ways, as if the process were stopped (SIGSTOP);
 * - `silence()` / `heal()`: a partition, with no reset (see SilenceMode).
 */
export class TcpRelay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private frozen = false;
  private held: Array<() => void> = [];
  private healBlackHole?: () => void;

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      // A connection made while frozen reaches the dependency only once thawed, as a dropped SYN would.
      if (this.frozen) {
        client.pause();
        this.held.push(() => this.relay(client));
        return;
      }
      this.relay(client);
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

  /** Makes the dependency silent to its callers, with no reset; says how. */
  silence(): SilenceMode {
    if (iptablesUsable()) {
      this.healBlackHole ??= blackHole(this.port);
      return 'iptables';
    }
    this.freeze();
    return 'relay';
  }

  heal(): void {
    this.healBlackHole?.();
    this.healBlackHole = undefined;
    this.thaw();
  }

  async stop(): Promise<void> {
    this.heal();
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
    this.server = undefined;
  }

  private relay(client: Socket): void {
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
    client.resume();
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
}
