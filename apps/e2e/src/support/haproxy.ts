import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForPort } from '@petstore/testing';

/** The repository's HAProxy configuration, which the tests run with (only the addresses differ). */
export const HAPROXY_CFG = join(__dirname, '../../../../deploy/haproxy/haproxy.cfg');

export const haproxyInstalled = (): boolean => spawnSync('haproxy', ['-v']).status === 0;

/** `haproxy -c` on a configuration file: its exit status and what it said. */
export function checkHaproxyConfig(file: string): { status: number | null; output: string } {
  const result = spawnSync('haproxy', ['-c', '-f', file], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

export interface RunningHaproxy {
  origin: string;
  /** Its log lines so far (one per request, HAProxy's httplog format). */
  log: () => string;
  stop(): Promise<void>;
}

/** Starts HAProxy with deploy/haproxy/haproxy.cfg, listening on `port`, in front of instances on `instancePorts`. */
export async function startHaproxy(port: number, instancePorts: number[]): Promise<RunningHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-haproxy-'));
  const servers = instancePorts.map((instancePort, index) => `    server api${index + 1} 127.0.0.1:${instancePort} check`).join('\n');
  const cfg = readFileSync(HAPROXY_CFG, 'utf8')
    .replace(/^ {4}bind :\d+$/m, `    bind 127.0.0.1:${port}`)
    .replace(/(^ {4}server api\d+ .*\n?)+/m, `${servers}\n`);
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, cfg);
  let log = '';
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (!(await waitForPort(port, { givenUp: () => child.exitCode !== null }))) throw new Error(`HAProxy did not start on port ${port}:\n${log}`);
  return {
    origin: `http://127.0.0.1:${port}`,
    log: () => log,
    stop: async () => {
      child.kill('SIGUSR1'); // soft stop: finishes what is in flight
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
