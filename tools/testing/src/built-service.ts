import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port';
import { type NodeProcess, type SpawnOptions, spawnNode, stopNode, waitFor200 } from './node-process';

const WORKSPACE = join(__dirname, '../../..');
/** What `npm start` runs: the service as `nx build api` leaves it. */
export const SERVICE_MAIN = join(WORKSPACE, 'dist', 'apps', 'api', 'main.js');
const START_CONFIG = JSON.parse(readFileSync(join(WORKSPACE, 'package.json'), 'utf8')).config as Record<string, string>;
/** From package.json config.node_options: the heap the service really runs with. */
export const START_NODE_OPTIONS: string = START_CONFIG.node_options;
/** `npm start`'s cap on glibc's malloc arenas (package.json config.malloc_arena_max). */
export const START_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: START_CONFIG.malloc_arena_max };

/** A short hash, so that figures can be told apart by build; throws if the service was never built. */
export function serviceBuild(): string {
  return createHash('sha256').update(readFileSync(builtMain())).digest('hex').slice(0, 16);
}

export interface ServiceSpawnOptions extends SpawnOptions {
  /** A copy of the build installed elsewhere; by default {@link SERVICE_MAIN}. */
  main?: string;
}

/** Returns at once, before the service listens. */
export async function spawnService({ main, ...options }: ServiceSpawnOptions): Promise<NodeProcess> {
  // Rate limits off: tests and measurements send many requests a second from one address. Metrics on, as in
  // production, on a port of its own so that several services can run side by side.
  const env = { RATE_LIMIT_RPS: '0', RATE_LIMIT_AUTH_FAILURES: '0', METRICS_PORT: String(await freePort()), ...options.env };
  return spawnNode('the service', main ?? builtMain(), { ...options, env });
}

/** Milliseconds from spawn until /health/live answers 200; rejects if the service exits first or times out. */
export const waitUntilLive = (service: NodeProcess): Promise<number> => waitFor200(service, '/health/live');

/** As waitUntilLive, for /health/ready (migrations done, database answering). */
export const waitUntilReady = (service: NodeProcess): Promise<number> => waitFor200(service, '/health/ready');

export interface StartedService extends NodeProcess {
  /** From spawn until /health/live answered 200. */
  liveMs: number;
  /** From spawn until /health/ready answered 200. */
  readyMs: number;
}

/** Resolves once the service is live and ready; stops it if it never is. */
export async function startService(options: ServiceSpawnOptions): Promise<StartedService> {
  const service = await spawnService(options);
  try {
    const liveMs = await waitUntilLive(service);
    return Object.assign(service, { liveMs, readyMs: await waitUntilReady(service) });
  } catch (error) {
    await stopNode(service);
    throw error;
  }
}

function builtMain(): string {
  if (!existsSync(SERVICE_MAIN)) throw new Error(`${SERVICE_MAIN} is missing: build the service first (npx nx build api)`);
  return SERVICE_MAIN;
}
