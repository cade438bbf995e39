import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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
  /** Its log lines so far, in HAProxy's httplog format. */
  log: () => string;
  /** Points server `api<n>` at a new address, as an ingress controller does when a replaced pod gets a new IP. */
  setServerAddress(server: number, host: string, port: number): Promise<void>;
  /** Waits until HAProxy's checks have put server `api<n>` (1-based) in the pool (60 s at most). */
  waitUntilUp(server: number): Promise<void>;
  /** Waits until HAProxy's checks have taken server `api<n>` out of the pool. */
  waitUntilDown(server: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts HAProxy with the repository's configuration on `port`, in front of `servers` (host:port). */
export async function startHaproxy(port: number, servers: string[]): Promise<RunningHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-haproxy-'));
  // The runtime API, for the tests only.
  const socket = join(dir, 'admin.sock');
  const serverLines = servers.map((address, index) => `    server api${index + 1} ${address} check`).join('\n');
  const cfg = readFileSync(HAPROXY_CFG, 'utf8')
    .replace(/^ {4}bind :\d+$/m, `    bind 127.0.0.1:${port}`)
    .replace(/(^ {4}server api\d+ .*\n?)+/m, `${serverLines}\n`)
    .replace(/^global\n/m, `global\n    stats socket ${socket} level admin\n`);
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, cfg);
  let log = '';
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waitForState = async (server: number, up: boolean) => {
    const deadline = Date.now() + 60_000;
    let state = '';
    while (Date.now() < deadline) {
      // `show servers state`: one line per server, its name 4th and its operational state 6th (2: up, 0: down).
      state = await runtimeCommand(socket, 'show servers state petstore');
      const fields = state.split('\n').map((line) => line.split(' ')).find((columns) => columns[3] === `api${server}`);
      if ((fields?.[5] === '2') === up) return;
      await sleep(100);
    }
    throw new Error(`HAProxy never took api${server} ${up ? 'into' : 'out of'} the pool:\n${state}`);
  };
  if (!(await waitForPort(port, { givenUp: () => child.exitCode !== null }))) throw new Error(`HAProxy did not start on port ${port}:\n${log}`);
  // An open port does not mean the runtime API is there: HAProxy binds the socket under a temporary name and renames it.
  if (!(await runtimeApiAnswers(socket, () => child.exitCode !== null))) throw new Error(`HAProxy's runtime API never answered on ${socket}:\n${log}`);
  return {
    origin: `http://127.0.0.1:${port}`,
    log: () => log,
    setServerAddress: async (server, host, serverPort) => {
      const answer = await runtimeCommand(socket, `set server petstore/api${server} addr ${host} port ${serverPort}`);
      if (!/changed/.test(answer)) throw new Error(`HAProxy did not move api${server} to ${host}:${serverPort}: ${answer}`);
    },
    waitUntilUp: (server) => waitForState(server, true),
    waitUntilDown: (server) => waitForState(server, false),
    stop: async () => {
      child.kill('SIGUSR1'); // soft stop: finishes what is in flight
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether the runtime API answers within 60 s, giving up at once when HAProxy has exited. */
async function runtimeApiAnswers(socket: string, givenUp: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !givenUp()) {
    const answer = await runtimeCommand(socket, 'show info').catch(() => '');
    if (/^Name: HAProxy$/m.test(answer)) return true;
    await sleep(100);
  }
  return false;
}

function runtimeCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const connection = createConnection(socket, () => connection.end(`${command}\n`));
    connection.setEncoding('utf8');
    connection.on('data', (chunk: string) => (answer += chunk));
    connection.once('end', () => resolve(answer.trim()));
    connection.once('error', reject);
  });
}
