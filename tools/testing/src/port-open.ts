import { createConnection } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether something accepts connections on 127.0.0.1:`port` now. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    }).on('error', () => resolve(false));
  });
}

export interface PortWait {
  closed?: boolean;
  timeoutMs?: number;
  givenUp?: () => boolean;
}

/**
 * Resolves once 127.0.0.1:`port` accepts connections (or, with `closed`, once it refuses them), checking every 50 ms
 * for at most `timeoutMs`; false if it did not, or if `givenUp()` says to stop waiting (e.g. the process exited).
 * The default minute is a deadline for a machine loaded many times over, not a verdict on speed.
 */
export async function waitForPort(port: number, { closed = false, timeoutMs = 60_000, givenUp = () => false }: PortWait = {}): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline && !givenUp(); ) {
    if ((await portOpen(port)) !== closed) return true;
    await sleep(50);
  }
  return false;
}
