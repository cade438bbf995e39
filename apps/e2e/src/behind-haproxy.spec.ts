import { userInfo } from 'node:os';
import { PetstoreClient } from '@petstore/client';
import { freePort, killNode, type NodeProcess, spawnService, startPgBouncer, stopNode } from '@petstore/testing';
import { Client } from 'pg';
import { checkHaproxyConfig, HAPROXY_CFG, haproxyInstalled, type RunningHaproxy, startHaproxy } from './support/haproxy';
import { type LoadReport, startClientLoad, startLoad } from './support/load';
import { TEST_KEY } from './support/test-key';

const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? `postgres://${userInfo().username}@127.0.0.1:5432/test`;
const INSTANCES = 3;
/** HAProxy checks every 500 ms and needs two good answers: a new instance is in the pool within this. */
const HAPROXY_RISE_MS = 1_500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function admin<T>(work: (client: Client) => Promise<T>, url = POSTGRES_ADMIN_URL): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Until /health/ready answers 200 on `port`, or 30 s. */
async function waitUntilReadyOn(port: number): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(100)) {
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then((response) => response.ok, () => false);
    if (ready) return;
  }
  throw new Error(`the instance on port ${port} was not ready within 30 s`);
}

/** Every acknowledged pet stored once under the id it was given, and no pet of the run stored twice. */
async function checkStored(databaseUrl: string, prefix: string, report: LoadReport) {
  const rows = await admin((client) => client.query<{ id: string; name: string }>('SELECT id, name FROM pets WHERE name LIKE $1', [`${prefix}%`]), databaseUrl);
  const byName = new Map<string, number[]>();
  for (const { id, name } of rows.rows) byName.set(name, [...(byName.get(name) ?? []), Number(id)]);
  const missing = [...report.acknowledged].filter(([name, id]) => !byName.get(name)?.includes(id));
  const duplicates = [...byName].filter(([, ids]) => ids.length > 1);
  return { present: report.acknowledged.size - missing.length, missing, duplicates };
}

interface Cluster {
  haproxy: RunningHaproxy;
  /** The running instances, by slot; `restart` replaces one. */
  instances: NodeProcess[];
  ports: number[];
  /** The database on the server itself, for the checks afterwards. */
  databaseUrl: string;
  /** Starts a new instance in the slot (whose process has exited) and waits until HAProxy sends to it. */
  restart: (index: number) => Promise<void>;
}

/**
 * Three instances on a PostgreSQL database of their own, behind HAProxy with the repository's configuration; with
 * `via` PgBouncer, they reach it through PgBouncer in transaction mode with the repository's configuration.
 */
async function withCluster(via: Route, work: (cluster: Cluster) => Promise<void>): Promise<void> {
  const database = `petstore_roll_${process.pid}_${Date.now()}`;
  await admin((client) => client.query(`CREATE DATABASE ${database}`));
  const server = new URL(POSTGRES_ADMIN_URL);
  const databaseUrl = Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${database}` }).href;
  const pgbouncer = via === 'PgBouncer' ? await startPgBouncer({ host: server.hostname, port: Number(server.port || 5432) }, await freePort()) : undefined;
  const serviceUrl = pgbouncer ? `${pgbouncer.origin}/${database}` : databaseUrl;
  const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
  const haproxyPort = await freePort();
  const instanceEnv = (port: number) => ({
    API_KEYS: TEST_KEY,
    NODE_ENV: 'production',
    DATABASE_URL: serviceUrl,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${haproxyPort}/v1`,
  });
  const instances: NodeProcess[] = [];
  let haproxy: RunningHaproxy | undefined;
  try {
    for (const port of ports) instances.push(await spawnService({ env: instanceEnv(port) }));
    await Promise.all(ports.map(waitUntilReadyOn));
    haproxy = await startHaproxy(haproxyPort, ports);
    await sleep(HAPROXY_RISE_MS);
    const restart = async (index: number) => {
      instances[index] = await spawnService({ env: instanceEnv(ports[index]) });
      await waitUntilReadyOn(ports[index]);
      await sleep(HAPROXY_RISE_MS);
    };
    await work({ haproxy, instances, ports, databaseUrl, restart });
  } finally {
    await haproxy?.stop();
    await Promise.all(instances.map((instance) => stopNode(instance)));
    await pgbouncer?.stop();
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  }
}

type Route = 'PostgreSQL' | 'PgBouncer';

describe('several instances behind HAProxy', () => {
  it('has a configuration HAProxy accepts', () => {
    if (!haproxyInstalled()) {
      if (process.env.CI === 'true') throw new Error('haproxy is not installed: .ci/run installs it');
      process.stderr.write('SKIPPED the HAProxy tests: haproxy is not installed (apt-get install -y haproxy)\n');
      return;
    }
    const { status, output } = checkHaproxyConfig(HAPROXY_CFG);
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('Configuration file is valid') });
  });

  it.each(['PostgreSQL', 'PgBouncer'] as const)('loses nothing while every instance is replaced in turn under steady load, on %s', async (via) => {
    if (!haproxyInstalled()) return; // said once above
    await withCluster(via, async ({ haproxy, instances, ports, databaseUrl, restart }) => {
      const prefix = `roll-${Date.now()}-`;
      const load = startLoad({ origin: haproxy.origin, key: TEST_KEY, rate: 250, prefix });
      const started = Date.now();
      await sleep(4_000);
      for (const index of ports.keys()) {
        // As a deploy would: SIGTERM, wait for the exit, start the new version, wait until HAProxy sends to it.
        expect(await stopNode(instances[index])).toEqual({ code: 0, signal: null });
        await restart(index);
      }
      await sleep(Math.max(0, 30_000 - (Date.now() - started)));
      const report = await load.stop();
      const seconds = (Date.now() - started) / 1000;

      const stored = await checkStored(databaseUrl, prefix, report);
      process.stdout.write(
        `rolling deploy (${via}, HAProxy, ${INSTANCES} instances): ${report.sent} requests sent in ${seconds.toFixed(0)} s ` +
          `(${(report.sent / seconds).toFixed(0)}/s), ${report.failures.length} failed, ${report.acknowledged.size} acknowledged creates, ` +
          `${stored.present} present, ${stored.duplicates.length} duplicates\n`,
      );
      expect(report.failures.slice(0, 10)).toEqual([]);
      expect(report.sent / seconds).toBeGreaterThanOrEqual(200);
      expect(stored.missing).toEqual([]);
      expect(stored.duplicates).toEqual([]);
    });
  }, 120_000);

  it.each(['PostgreSQL', 'PgBouncer'] as const)('loses no acknowledged pet, and no client operation, when an instance is SIGKILLed under load, on %s', async (via) => {
    if (!haproxyInstalled()) return; // said once above
    await withCluster(via, async ({ haproxy, instances, databaseUrl }) => {
      const prefix = `crash-${Date.now()}-`;
      const client = new PetstoreClient({ baseUrl: `${haproxy.origin}/v1`, apiKey: TEST_KEY, logger: { warn: () => undefined } });
      const load = startClientLoad(client, { rate: 250, prefix });
      const started = Date.now();
      await sleep(5_000);
      // The log names the instance that served each request: it did serve before it died.
      expect(haproxy.log()).toContain('petstore/api2 ');
      await killNode(instances[1]);
      const killedAt = Date.now();
      // HAProxy's checks (every 500 ms, down after two failures) take it out; later requests go to the others.
      await sleep(2_000);
      const logSinceOut = haproxy.log().length;
      await sleep(Math.max(5_000, 20_000 - (Date.now() - started)));
      const report = await load.stop();
      const seconds = (Date.now() - started) / 1000;
      const sentToTheDead = haproxy.log().slice(logSinceOut).split('\n').filter((line) => line.includes('petstore/api2 '));

      const stored = await checkStored(databaseUrl, prefix, report);
      process.stdout.write(
        `SIGKILL (${via}, HAProxy, @petstore/client): ${report.sent} operations in ${seconds.toFixed(0)} s, ${report.failures.length} failed, ` +
          `${report.acknowledged.size} acknowledged creates, ${stored.present} present, ${stored.duplicates.length} duplicates; ` +
          `killed ${((Date.now() - killedAt) / 1000).toFixed(0)} s before the end, ${sentToTheDead.length} requests to it after 2 s\n`,
      );
      expect(report.failures.slice(0, 10)).toEqual([]);
      expect(stored.missing).toEqual([]);
      expect(stored.duplicates).toEqual([]);
      expect(sentToTheDead).toEqual([]);
    });
  }, 120_000);
});
