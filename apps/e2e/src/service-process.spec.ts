import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, spawnService, waitUntilLive } from '@petstore/testing';
import { TEST_KEY } from './support/test-key';

const WORKSPACE = join(__dirname, '../../..');

// The built service as `npm start` runs it: configuration, the development key, and a clean stop.
describe('the service process', () => {
  let dir: string;
  const database = () => `sqlite:${join(dir, 'petstore.sqlite')}`;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-process-'));
  });
  const stopAfterwards: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stopAfterwards.splice(0)) await stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('serves on PORT and exits with code 0 on %s', async (signal) => {
    const service = await spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: database() } });
    await waitUntilLive(service);
    const response = await fetch(`${service.origin}/v1/pets`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
    expect(response.status).toBe(200);
    service.child.kill(signal);
    // Exit 0 is a stop that ended in time: one cut short by its deadline (stop-on-signals.spec) exits 1.
    expect(await service.exited).toEqual({ code: 0, signal: null });
    const lines = service.stdout().trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.some((line) => line.reqId && line.url === '/v1/pets' && line.statusCode === 200)).toBe(true);
    expect(service.stdout()).not.toContain(TEST_KEY);
  });

  it('serves without metrics, saying why, when its METRICS_PORT is taken (a second instance on one machine)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const metricsPort = (taken.address() as AddressInfo).port;
    try {
      const service = await spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: database(), METRICS_PORT: String(metricsPort) } });
      await waitUntilLive(service);
      expect((await fetch(`${service.origin}/v1/pets`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).status).toBe(200);
      service.child.kill('SIGTERM');
      expect(await service.exited).toEqual({ code: 0, signal: null });
      const lines = service.stdout().trim().split('\n').map((line) => JSON.parse(line));
      expect(lines).toContainEqual(
        expect.objectContaining({ level: 50, msg: expect.stringContaining(`cannot listen on 127.0.0.1:${metricsPort}`) }),
      );
      expect(lines.find((line) => line.level === 50)?.msg).toMatch(/own METRICS_PORT/);
    } finally {
      taken.close();
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('stops cleanly when `npm start` itself gets %s, as from a process manager', async (signal) => {
    const port = await freePort();
    const file = join(dir, 'petstore.sqlite');
    // --ignore-scripts skips prestart's build (done before this suite); `start` itself still runs.
    const metricsPort = await freePort();
    const npm = spawn('npm', ['start', '--ignore-scripts', '--silent'], {
      cwd: WORKSPACE,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), METRICS_PORT: String(metricsPort), HOST: '127.0.0.1', API_KEYS: TEST_KEY, DATABASE_URL: `sqlite:${file}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    npm.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    // A failed expectation must not leave it serving, nor keep Jest waiting on its stderr.
    stopAfterwards.push(async () => {
      if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGTERM');
      await exited;
    });
    const origin = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !(await fetch(`${origin}/health/ready`).then((r) => r.ok, () => false))) {
      await sleep(100);
    }
    expect((await fetch(`${origin}/v1/pets`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).status).toBe(200);
    // On a maintained LTS line (24 or later), and nothing on stderr at start-up: no deprecation or other warning.
    const buildInfo = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const major = Number(/petstore_build_info\{[^}]*node_version="(\d+)\./.exec(buildInfo)?.[1]);
    expect(major).toBeGreaterThanOrEqual(24);
    expect(stderr).toBe('');
    // With glibc's malloc arenas capped (package.json config.malloc_arena_max; docs/operations.md).
    expect(environmentOf(serviceUnder(npm.pid ?? 0))).toContain('MALLOC_ARENA_MAX=2');

    npm.kill(signal);
    expect(await exited).toBe(0);
    // The service itself stopped (no orphan left serving) and closed its database: the WAL is checkpointed away.
    await expect(fetch(`${origin}/health/live`)).rejects.toThrow();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('writes the request log line while it keeps running, with no more lines to fill a batch', async () => {
    const service = await spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: database() } });
    try {
      await waitUntilLive(service);
      await fetch(`${service.origin}/v1/pets?limit=3`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
      // Lines are written in batches (logging/create-logger.ts), flushed at least once a second (line-batches.spec
      // pins the second on a fake clock); the wait here is generous, so that only a batch never flushed fails.
      const deadline = Date.now() + 30_000;
      while (!service.stdout().includes('"url":"/v1/pets?limit=3"') && Date.now() < deadline) {
        await sleep(50);
      }
      expect(service.stdout()).toContain('"url":"/v1/pets?limit=3"');
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });

  it('prints a development key once when no key is configured, and accepts it', async () => {
    const service = await spawnService({ env: { DATABASE_URL: database() } });
    try {
      await waitUntilLive(service);
      const keys = service.stderr().match(/pk_dev_[A-Za-z0-9_-]+/g) ?? [];
      expect(keys).toHaveLength(1);
      const response = await fetch(`${service.origin}/v1/pets`, { headers: { authorization: `Bearer ${keys[0]}` } });
      expect(response.status).toBe(200);
      expect(service.stdout()).not.toContain(keys[0]);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });

  it('refuses to start in production without keys, saying why', async () => {
    const service = await spawnService({ env: { NODE_ENV: 'production', DATABASE_URL: database() } });
    expect((await service.exited).code).toBe(1);
    expect(service.stderr()).toMatch(/API_KEYS .*production/);
    expect(service.stderr()).not.toContain('pk_dev_');
  });

  it('refuses a bad configuration, naming every bad variable and never a key', async () => {
    const service = await spawnService({
      env: {
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://db',
        PUBLIC_BASE_URL: 'not a url',
        RATE_LIMIT_RPS: '-1',
        API_KEYS: 'short',
      },
    });
    expect((await service.exited).code).toBe(1);
    for (const name of ['PORT', 'LOG_LEVEL', 'DATABASE_URL', 'PUBLIC_BASE_URL', 'RATE_LIMIT_RPS', 'API_KEYS']) {
      expect(service.stderr()).toContain(name);
    }
    expect(service.stderr()).not.toContain('short');
  });
});

/** The process under `pid` (itself or a descendant) that runs the built service. */
function serviceUnder(pid: number): number {
  if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('dist/apps/api/main.js')) return pid;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  const found = children.map(serviceUnder).find((child) => child > 0);
  return found ?? 0;
}

const environmentOf = (pid: number): string[] => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
