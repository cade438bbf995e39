import { type ChildProcess, spawn, type StdioOptions } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port';

const WAIT_TIMEOUT_MS = 60_000;
/** Longer than the service's own deadline for a stop, so that the exit code is the one it chose. */
const STOP_TIMEOUT_MS = 15_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnOptions {
  /** Its environment besides PATH and its address (HOST, PORT, PUBLIC_BASE_URL), which it may override. */
  env: Record<string, string>;
  /**
   * Where its output is appended, as a process under load needs: an undrained pipe blocks it, and a drained one costs
   * this process CPU. Without it, the output is kept in memory.
   */
  logFile?: string;
  /** By default the one running this process. */
  node?: string;
  args?: string[];
}

/** Started by {@link spawnNode}, on a port of its own. */
export interface NodeProcess {
  /** Named in errors: "the service", "the reference server". */
  name: string;
  child: ChildProcess;
  pid: number;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** `performance.now()` at spawn, where its start-up times count from. */
  startedAt: number;
  /** Empty when it goes to a log file. */
  stdout: () => string;
  /** Empty when it goes to a log file. */
  stderr: () => string;
  /** The last lines of its output, for error messages. */
  outputTail: () => string;
  exit?: Exit;
  exited: Promise<Exit>;
}

/** Runs `node main ...args` on a free port of 127.0.0.1. */
export async function spawnNode(name: string, main: string, { env, logFile, node = process.execPath, args }: SpawnOptions): Promise<NodeProcess> {
  // A PORT of the caller's (an instance's slot behind HAProxy) is where it will listen, and so its origin.
  const port = env.PORT ?? String(await freePort());
  const origin = `http://127.0.0.1:${port}`;
  let log: number | undefined;
  if (logFile) {
    appendFileSync(logFile, `--- ${new Date().toISOString()} ${name} starting at ${origin}\n`);
    log = openSync(logFile, 'a');
  }
  const stdio: StdioOptions = log === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', log, log];
  const startedAt = performance.now();
  const child = spawn(node, [main, ...(args ?? [])], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: port, PUBLIC_BASE_URL: `${origin}/v1`, ...env },
    stdio,
  });
  if (log !== undefined) closeSync(log);
  if (child.pid === undefined) throw new Error(`could not start ${name} (${main})`);
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk;
    output += chunk;
  });
  const started: NodeProcess = {
    name,
    child,
    pid: child.pid,
    origin,
    startedAt,
    stdout: () => stdout,
    stderr: () => stderr,
    outputTail: () => (logFile ? readFileSync(logFile, 'utf8') : output).split('\n').slice(-20).join('\n'),
    exited: new Promise(() => undefined),
  };
  // 'close' rather than 'exit': the output kept in memory is then complete.
  started.exited = new Promise((resolve) =>
    child.once('close', (code, signal) => {
      started.exit = { code, signal };
      resolve(started.exit);
    }),
  );
  return started;
}

/**
 * Milliseconds from spawn until `path` answers 200; throws with the end of its output if it exits first or times out
 * (raise `timeoutMs` for a start that migrates a large database).
 */
export async function waitFor200(target: NodeProcess, path: string, headers: Record<string, string> = {}, timeoutMs = WAIT_TIMEOUT_MS): Promise<number> {
  const url = `${target.origin}${path}`;
  while (performance.now() - target.startedAt < timeoutMs && isRunning(target)) {
    if ((await statusOf(url, headers)) === 200) return performance.now() - target.startedAt;
    await sleep(5);
  }
  const state = isRunning(target) ? 'still running' : `exited with ${JSON.stringify(await target.exited)}`;
  throw new Error(`${target.name} did not answer 200 at ${url} (${state}). Its output ends:\n${target.outputTail()}`);
}

/** SIGTERM, as an orchestrator stops it, then SIGKILL if it is still running. */
export async function stopNode(target: NodeProcess): Promise<Exit> {
  if (!isRunning(target)) return target.exited;
  target.child.kill('SIGTERM');
  const timer = setTimeout(() => target.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  const exit = await target.exited;
  clearTimeout(timer);
  return exit;
}

/** No shutdown hook runs. False if it had already exited by itself. */
export async function killNode(target: NodeProcess): Promise<boolean> {
  const running = isRunning(target);
  if (running) target.child.kill('SIGKILL');
  await target.exited;
  return running;
}

const isRunning = ({ child }: NodeProcess) => child.exitCode === null && child.signalCode === null;

// node:http rather than fetch: undici loads lazily on first use, which would be counted in the start-up time.
function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { headers, agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}
