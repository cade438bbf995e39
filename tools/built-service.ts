// What the tools that run the built service (the benchmark, the crash harness) share: where it is, the V8 flags
// `npm start` gives it, and a port to put it on.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const WORKSPACE = join(__dirname, '..');
export const SERVICE_MAIN = join(WORKSPACE, 'dist', 'apps', 'api', 'main.js');
/** The V8 flags of `npm start` (package.json config.node_options): the heap the service really runs with. */
export const START_NODE_OPTIONS: string = JSON.parse(readFileSync(join(WORKSPACE, 'package.json'), 'utf8')).config.node_options;

/** A port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

/** A short hash of the built service, so that figures can be told apart by build; throws if it was never built. */
export function serviceBuild(): string {
  if (!existsSync(SERVICE_MAIN)) throw new Error(`${SERVICE_MAIN} is missing: build the service first (npx nx build api)`);
  return createHash('sha256').update(readFileSync(SERVICE_MAIN)).digest('hex').slice(0, 16);
}
