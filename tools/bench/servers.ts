import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type NodeProcess, spawnNode, START_ENV, START_NODE_OPTIONS, startService as startBuiltService, stopNode, waitFor200, withClient } from '@petstore/testing';

export const API_KEY = 'bench-key-0123456789abcdef';

export interface RunningServer extends NodeProcess {
  /** From spawn until the first 200: /health/live for the service, an authenticated list for the reference. */
  startupMs: number;
  /** The service only: from spawn until /health/ready is 200. */
  readyMs?: number;
  /** PostgreSQL only: the backends serving this server's connections now, whose CPU counts as the server's. */
  databasePids?: () => Promise<number[]>;
}

export interface ServiceOptions {
  databaseUrl: string;
  logFile: string;
  /** Its LOG_LEVEL, and NODE_OPTIONS instead of those of `npm start`. */
  logLevel?: string;
  nodeOptions?: string;
  /** Over the rest (e.g. METRICS_PORT=0). */
  env?: Record<string, string>;
  /** Another Node.js binary, and the build installed for it (see other-node.ts). */
  node?: string;
  main?: string;
}

/** The built service as `npm start` runs it in production. */
export async function startService({ databaseUrl, logFile, logLevel = 'info', nodeOptions, env = {}, node, main }: ServiceOptions): Promise<RunningServer> {
  const service = await startBuiltService({
    node,
    main,
    env: { ...START_ENV, NODE_ENV: 'production', NODE_OPTIONS: nodeOptions ?? START_NODE_OPTIONS, API_KEYS: API_KEY, DATABASE_URL: databaseUrl, LOG_LEVEL: logLevel, ...env },
    logFile,
  });
  const server: RunningServer = Object.assign(service, { startupMs: service.liveMs });
  if (databaseUrl.startsWith('postgres')) server.databasePids = () => backendsOf(databaseUrl);
  return server;
}

/** The ceiling for the service: reference-server.mjs on a SQLite file, or a copy run by another Node.js. */
export async function startReference(database: string, logFile: string, other?: { node: string; script: string }): Promise<RunningServer> {
  const env = { API_KEYS: API_KEY, DATABASE: database };
  return startMjs('the reference server', other?.script ?? join(__dirname, 'reference-server.mjs'), logFile, '/v1/pets?limit=1', env, other?.node);
}

/**
 * A raw reference of the operator's, given by --raw, run with `SYNC=FULL` (the service's durability). Copied beside the
 * workspace's node_modules, so that its imports resolve wherever the file came from.
 */
export async function startRaw(script: string, database: string, logFile: string): Promise<RunningServer> {
  const copy = join(__dirname, '../../tmp/bench-raw', basename(script));
  mkdirSync(dirname(copy), { recursive: true });
  copyFileSync(script, copy);
  return startMjs('the raw reference', copy, logFile, '/v1/pets?limit=1', { API_KEY, DB_FILE: database, SYNC: 'FULL' });
}

/** The load generator's ceiling: a fixed JSON for any request. */
export async function startTrivial(logFile: string): Promise<RunningServer> {
  return startMjs('the trivial server', join(__dirname, 'trivial-server.mjs'), logFile, '/', {});
}

export const stopServer = stopNode;

/** In MB: `VmRSS` now, or `VmHWM`, the peak since the process started. */
export function residentMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  // 0 once the process is gone: a crash then shows as failed requests, not as an exception here.
  const status = existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, 'utf8') : '';
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) / 1024 : 0;
}

async function startMjs(name: string, script: string, logFile: string, probe: string, env: Record<string, string>, node?: string): Promise<RunningServer> {
  const server = await spawnNode(name, script, { env, logFile, node });
  try {
    return Object.assign(server, { startupMs: await waitFor200(server, probe, { authorization: `Bearer ${API_KEY}` }) });
  } catch (error) {
    await stopNode(server);
    throw error;
  }
}

// Through a connection of its own to the same database, left out of the list.
function backendsOf(databaseUrl: string): Promise<number[]> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    );
    return rows.map((row) => row.pid);
  });
}
