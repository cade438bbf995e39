// What the tools that run the built service (the benchmark, the crash harness) share: where it is, the V8 flags
// `npm start` gives it, a port to put it on, and how to start it, wait for it and stop it.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';

const WORKSPACE = join(__dirname, '..');
export const SERVICE_MAIN = join(WORKSPACE, 'dist', 'apps', 'api', 'main.js');
/** The V8 flags of `npm start` (package.json config.node_options): the heap the service really runs with. */
export const START_NODE_OPTIONS: string = JSON.parse(readFileSync(join(WORKSPACE, 'package.json'), 'utf8')).config.node_options;
const START_TIMEOUT_MS = 60_000;

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

/** A Node.js process started by {@link spawnNode}, with its output in a file. */
export interface NodeProcess {
  /** Named in errors: "the service", "the reference server". */
  name: string;
  child: ChildProcess;
  pid: number;
  logFile: string;
}

export interface BuiltServiceOptions {
  /** The service's DATABASE_URL. */
  databaseUrl: string;
  /** Its only API key. */
  apiKey: string;
  /** Where its output goes (overwritten). */
  logFile: string;
  /** @default 'info', its production default */
  logLevel?: string;
  /** @default START_NODE_OPTIONS, as `npm start` runs it */
  nodeOptions?: string;
}

export interface BuiltService extends NodeProcess {
  baseUrl: string;
  /** From spawn until /health/live answered 200. */
  liveMs: number;
  /** From spawn until /health/ready answered 200 (migrations done, database answering). */
  readyMs: number;
}

/** Starts `node dist/apps/api/main.js` as production runs it, rate limits off, and resolves once it is ready. */
export async function startBuiltService(options: BuiltServiceOptions): Promise<BuiltService> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const service = spawnNode('the service', SERVICE_MAIN, options.logFile, {
    NODE_ENV: 'production',
    NODE_OPTIONS: options.nodeOptions ?? START_NODE_OPTIONS,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: `${baseUrl}/v1`,
    API_KEYS: options.apiKey,
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: options.logLevel ?? 'info',
    // One key from one address at full speed: a limiter would turn the run into a 429 test.
    RATE_LIMIT_RPS: '0',
    RATE_LIMIT_AUTH_FAILURES: '0',
  });
  try {
    const liveMs = await waitFor200(service, `${baseUrl}/health/live`, started);
    return { ...service, baseUrl, liveMs, readyMs: await waitFor200(service, `${baseUrl}/health/ready`, started) };
  } catch (error) {
    await stopNode(service);
    throw error;
  }
}

// Output goes to a file, as in production, rather than to a pipe that this process would have to drain (an
// undrained pipe blocks the child; a drained one costs this process CPU).
/** Runs `node main` with exactly `env` (and PATH), its stdout and stderr written to `logFile`. */
export function spawnNode(name: string, main: string, logFile: string, env: Record<string, string>): NodeProcess {
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', log, log] });
  closeSync(log);
  if (child.pid === undefined) throw new Error(`could not start ${name} (${main})`);
  return { name, child, pid: child.pid, logFile };
}

/** Milliseconds from `started` until `url` answers 200; throws with the end of the log if it exits or takes 60 s. */
export async function waitFor200(target: NodeProcess, url: string, started: number, headers: Record<string, string> = {}): Promise<number> {
  while (performance.now() - started < START_TIMEOUT_MS && target.child.exitCode === null) {
    if ((await statusOf(url, headers)) === 200) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const log = readFileSync(target.logFile, 'utf8').split('\n').slice(-20).join('\n');
  throw new Error(`${target.name} did not answer 200 at ${url} (exit code ${target.child.exitCode}). Its log ends:\n${log}`);
}

/** SIGTERM, as an orchestrator would; SIGKILL if it has not exited within 10 s. */
export async function stopNode({ child }: NodeProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
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
