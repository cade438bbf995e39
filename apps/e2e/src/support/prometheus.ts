import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@petstore/testing';

/** Whether `command` is an executable file on PATH. */
export const onPath = (command: string): boolean =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));

export interface PromtoolRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `promtool args…` in `cwd` to its end. */
export function promtool(cwd: string, ...args: string[]): PromtoolRun {
  const { status, stdout, stderr, error } = spawnSync('promtool', args, { cwd, encoding: 'utf8', timeout: 30_000 });
  if (error) throw error;
  return { status, stdout, stderr };
}

export interface RunningPrometheus {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  child: ChildProcess;
  /** Its log so far, for error messages. */
  output: () => string;
}

/** Starts `prometheus` on a free port of 127.0.0.1 with `configFile` and its storage in `storageDir`; resolves once it is ready. */
export async function startPrometheus(configFile: string, storageDir: string): Promise<RunningPrometheus> {
  const origin = `http://127.0.0.1:${await freePort()}`;
  const child = spawn(
    'prometheus',
    [`--config.file=${configFile}`, `--storage.tsdb.path=${storageDir}`, `--web.listen-address=${origin.slice('http://'.length)}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const prometheus = { origin, child, output: () => output };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if (await fetch(`${origin}/-/ready`).then((r) => r.ok, () => false)) return prometheus;
    await sleep(100);
  }
  await stopPrometheus(prometheus);
  throw new Error(`prometheus did not become ready at ${origin}. Its output ends:\n${output.split('\n').slice(-20).join('\n')}`);
}

/** SIGTERM, then SIGKILL after 10 s; resolves once it has exited. */
export async function stopPrometheus({ child }: RunningPrometheus): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export interface Sample {
  metric: Record<string, string>;
  value: number;
}

/** An instant query through Prometheus's HTTP API; throws on an error status. */
export async function query(prometheus: RunningPrometheus, promql: string): Promise<Sample[]> {
  const response = await fetch(`${prometheus.origin}/api/v1/query?${new URLSearchParams({ query: promql })}`);
  const body = (await response.json()) as {
    status: string;
    error?: string;
    data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  if (body.status !== 'success' || body.data?.resultType !== 'vector') throw new Error(`${promql}: ${body.error ?? JSON.stringify(body)}`);
  return body.data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }));
}
