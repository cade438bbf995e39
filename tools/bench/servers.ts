import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { freePort, SERVICE_MAIN, START_NODE_OPTIONS } from '../built-service';

export const API_KEY = 'bench-key-0123456789abcdef';
const REFERENCE_MAIN = join(__dirname, 'reference-server.mjs');
const START_TIMEOUT_MS = 60_000;

export interface ServerOptions {
  database: string;
  logFile: string;
  /** The service only: its LOG_LEVEL, and NODE_OPTIONS instead of those of `npm start`. */
  logLevel?: string;
  nodeOptions?: string;
}

export interface RunningServer {
  kind: 'service' | 'reference';
  pid: number;
  baseUrl: string;
  /** From spawn until the first 200: /health/live for the service, an authenticated list for the reference. */
  startupMs: number;
  /** The service only: from spawn until /health/ready is 200 (migrations done, database answering). */
  readyMs?: number;
  child: ChildProcess;
  logFile: string;
}

export async function startService(options: ServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    NODE_ENV: 'production',
    API_KEYS: API_KEY,
    DATABASE_URL: `sqlite:${options.database}`,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: `${baseUrl}/v1`,
    LOG_LEVEL: options.logLevel ?? 'info',
    // The benchmark is one key at full speed: the per-key limit would turn it into a 429 test.
    RATE_LIMIT_RPS: '0',
    // As `npm start` runs it (package.json config.node_options), unless --node-options says otherwise.
    NODE_OPTIONS: options.nodeOptions ?? START_NODE_OPTIONS,
  };
  const started = performance.now();
  const server = { kind: 'service' as const, ...spawnLogged(SERVICE_MAIN, env, options.logFile), baseUrl, logFile: options.logFile, startupMs: 0 };
  server.startupMs = await waitFor200(server, `${baseUrl}/health/live`, started);
  return { ...server, readyMs: await waitFor200(server, `${baseUrl}/health/ready`, started) };
}

export async function startReference(options: ServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { API_KEYS: API_KEY, DATABASE: options.database, HOST: '127.0.0.1', PORT: String(port), PUBLIC_BASE_URL: `${baseUrl}/v1` };
  const started = performance.now();
  const server = { kind: 'reference' as const, ...spawnLogged(REFERENCE_MAIN, env, options.logFile), baseUrl, logFile: options.logFile, startupMs: 0 };
  server.startupMs = await waitFor200(server, `${baseUrl}/v1/pets?limit=1`, started);
  return server;
}

/** SIGTERM, as an orchestrator would; SIGKILL if it has not exited within 10 s. */
export async function stopServer(server: RunningServer): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Resident memory in MB from /proc: `VmRSS` now, or `VmHWM`, the peak since the process started. */
export function residentMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  // 0 once the process is gone: a crash then shows as failed requests, not as an exception here.
  const status = existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, 'utf8') : '';
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) / 1024 : 0;
}

// Logs go to a file, as in production, rather than to a pipe that this process would have to drain (an undrained
// pipe blocks the child; a drained one costs this process CPU that autocannon needs).
function spawnLogged(main: string, env: Record<string, string>, logFile: string): { child: ChildProcess; pid: number } {
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', log, log] });
  closeSync(log);
  if (child.pid === undefined) throw new Error(`could not start ${main}`);
  return { child, pid: child.pid };
}

async function waitFor200(server: RunningServer, url: string, started: number): Promise<number> {
  const headers = { authorization: `Bearer ${API_KEY}` };
  while (performance.now() - started < START_TIMEOUT_MS) {
    if (server.child.exitCode !== null) break;
    if ((await statusOf(url, headers)) === 200) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const log = readFileSync(server.logFile, 'utf8').split('\n').slice(-20).join('\n');
  throw new Error(`The ${server.kind} did not answer 200 at ${url} (exit code ${server.child.exitCode}). Its log ends:\n${log}`);
}

// node:http rather than fetch: undici loads lazily on first use, which would be counted in the start-up time.
function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { headers, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}
