import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readFileSync } from 'node:fs';
import { freePort, SERVICE_MAIN, START_NODE_OPTIONS } from '../built-service';

export const API_KEY = 'crash-key-0123456789abcdef';
const READY_TIMEOUT_MS = 30_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningService {
  child: ChildProcess;
  baseUrl: string;
  /** From spawn until /health/ready answered 200. */
  readyMs: number;
  /** Set once the process has exited, for whatever reason. */
  exit?: Exit;
  exited: Promise<Exit>;
}

/** Starts the built service on the database and resolves once it is ready; its output is appended to `logFile`. */
export async function startService(databaseUrl: string, logFile: string): Promise<RunningService> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  appendFileSync(logFile, `--- ${new Date().toISOString()} starting on port ${port}\n`);
  const log = openSync(logFile, 'a');
  const started = performance.now();
  const child = spawn(process.execPath, [SERVICE_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      NODE_OPTIONS: START_NODE_OPTIONS,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: `${baseUrl}/v1`,
      API_KEYS: API_KEY,
      DATABASE_URL: databaseUrl,
      // One key from one address at full speed: a limiter would turn the run into a 429 test.
      RATE_LIMIT_RPS: '0',
      RATE_LIMIT_AUTH_FAILURES: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const service: RunningService = { child, baseUrl, readyMs: 0, exited: new Promise(() => undefined) };
  service.exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      service.exit = { code, signal };
      resolve(service.exit);
    }),
  );
  while (performance.now() - started < READY_TIMEOUT_MS && !service.exit) {
    if (await isReady(baseUrl)) {
      service.readyMs = performance.now() - started;
      return service;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGKILL');
  const tail = readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
  throw new Error(`the service did not become ready at ${baseUrl} (exit ${JSON.stringify(service.exit ?? null)}); ${logFile} ends:\n${tail}`);
}

/** SIGKILL: no shutdown hook runs. Resolves once the process is gone; false if it had already exited by itself. */
export async function killService(service: RunningService): Promise<boolean> {
  const running = !service.exit;
  if (running) service.child.kill('SIGKILL');
  await service.exited;
  return running;
}

/** SIGTERM, as an orchestrator stops it; resolves to how it exited (code 0 expected within 10 s). */
export async function stopService(service: RunningService): Promise<Exit> {
  if (service.exit) return service.exit;
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 15_000);
  const exit = await service.exited;
  clearTimeout(timer);
  return exit;
}

async function isReady(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}
