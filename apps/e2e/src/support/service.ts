import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const BUILT_MAIN = join(__dirname, '../../../../dist/apps/api/main.js');

/** A key the services under test accept; it must never show up in a response or a log line. */
export const TEST_KEY = 'pk_e2e_canary_7c41a0d9e2b54f36';

export interface ServiceProcess {
  child: ChildProcess;
  origin: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Runs the built service (what `npm start` runs) as a child process with exactly the given environment. */
export async function spawnService(env: Record<string, string>): Promise<ServiceProcess> {
  if (!existsSync(BUILT_MAIN)) throw new Error(`${BUILT_MAIN} is missing: run "npx nx build api" first`);
  const port = await freePort();
  const child = spawn(process.execPath, [BUILT_MAIN], {
    // Rate limits off unless a test sets them: the suites send many requests a second from one address.
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_RPS: '0', RATE_LIMIT_AUTH_FAILURES: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, origin: `http://127.0.0.1:${port}`, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Resolves once the service answers its liveness probe; rejects if it exits first or takes over 20 s. */
export const waitUntilLive = (service: ServiceProcess) => waitForProbe(service, 'live');

/** Resolves once the service is ready (connected and migrated); rejects if it exits first or takes over 20 s. */
export const waitUntilReady = (service: ServiceProcess) => waitForProbe(service, 'ready');

async function waitForProbe(service: ServiceProcess, probe: 'live' | 'ready'): Promise<void> {
  let exited = false;
  void service.exited.then(() => (exited = true));
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && !exited) {
    // Refused while the service is not listening yet.
    if (await fetch(`${service.origin}/health/${probe}`).then((response) => response.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`service did not become ${probe}:\n${service.stderr()}\n${service.stdout().slice(-2000)}`);
}
