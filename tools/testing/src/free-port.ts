import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Ports below the kernels' ephemeral ranges (Linux from 32768, macOS and Windows from 49152). A port the kernel picks
 * for `listen(0)` or an outgoing connection may be picked again for anyone the moment it is released, before the
 * process it was meant for has bound it: a cluster test once found an instance's port taken by another instance's
 * metrics server. The kernel never picks from here, so only this module does, once per port and process.
 */
const FIRST = 20_000;
const LAST = 32_767;
const ATTEMPTS = 100;
const handedOut = new Set<number>();

/** A port on 127.0.0.1 that was free a moment ago and that this process has not handed out before. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = randomInt(FIRST, LAST + 1);
    if (handedOut.has(port)) continue;
    // Taken before the probe, so that calls under way at once cannot both hand it out; kept if something holds it.
    handedOut.add(port);
    if (await canListenOn(port)) return port;
  }
  throw new Error(`no free port between ${FIRST} and ${LAST} in ${ATTEMPTS} attempts`);
}

function canListenOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
