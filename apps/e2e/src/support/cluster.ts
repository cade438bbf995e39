import { createPostgresDatabase, DEFAULT_POSTGRES_URL, freePort, type NodeProcess, spawnService, startPgBouncer, stopNode, waitUntilReady, withClient } from '@petstore/testing';
import type { Client } from 'pg';
import { type RunningHaproxy, startHaproxy } from './haproxy';
import type { LoadReport } from './load';
import { TEST_KEY } from './test-key';

export const POSTGRES_ADMIN_URL = DEFAULT_POSTGRES_URL;
export const INSTANCES = 3;

/** Runs `work` on a connection of its own to `url`. */
export const admin = <T>(work: (client: Client) => Promise<T>, url = POSTGRES_ADMIN_URL): Promise<T> => withClient(url, work);

/** Every acknowledged pet stored once under the id it was given, and no pet of the run stored twice. */
export async function checkStored(databaseUrl: string, prefix: string, report: LoadReport) {
  const rows = await admin((client) => client.query<{ id: string; name: string }>('SELECT id, name FROM pets WHERE name LIKE $1', [`${prefix}%`]), databaseUrl);
  const byName = new Map<string, number[]>();
  for (const { id, name } of rows.rows) byName.set(name, [...(byName.get(name) ?? []), Number(id)]);
  const missing = [...report.acknowledged].filter(([name, id]) => !byName.get(name)?.includes(id));
  const duplicates = [...byName].filter(([, ids]) => ids.length > 1);
  return { present: report.acknowledged.size - missing.length, missing, duplicates };
}

/** Instances behind HAProxy, as the tests run them. */
export interface Instances {
  haproxy: RunningHaproxy;
  /** The running instances, by slot. */
  instances: NodeProcess[];
  ports: number[];
  /** Starts a new instance in the slot (whose process has exited) and waits until HAProxy sends to it. */
  restart: (index: number) => Promise<void>;
}

export interface Cluster extends Instances {
  /** The database on the server itself, for the checks afterwards. */
  databaseUrl: string;
}

export interface ClusterOptions {
  /** The database directly, or through PgBouncer. */
  via: Route;
  /** More environment for every instance. */
  env?: Record<string, string>;
  /** The PostgreSQL server to make the database on. */
  adminUrl?: string;
}

/**
 * Three instances on a PostgreSQL database of their own, behind HAProxy; with `via` PgBouncer, they reach it through
 * PgBouncer in transaction mode. Both run with the repository's configuration.
 */
export async function withCluster({ via, env = {}, adminUrl = POSTGRES_ADMIN_URL }: ClusterOptions, work: (cluster: Cluster) => Promise<void>): Promise<void> {
  const { name: database, url: databaseUrl, drop } = await createPostgresDatabase(adminUrl, 'petstore_roll');
  const server = new URL(adminUrl);
  const pgbouncer = via === 'PgBouncer' ? await startPgBouncer({ host: server.hostname, port: Number(server.port || 5432) }, await freePort()) : undefined;
  try {
    const serviceUrl = pgbouncer ? `${pgbouncer.origin}/${database}` : databaseUrl;
    await withInstances({ count: INSTANCES, env: { NODE_ENV: 'production', DATABASE_URL: serviceUrl, ...env } }, (running) => work({ ...running, databaseUrl }));
  } finally {
    await pgbouncer?.stop();
    await drop();
  }
}

/** `count` instances of the built service with `env` (the test key besides), behind HAProxy with the repository's configuration. */
export async function withInstances({ count, env }: { count: number; env: Record<string, string> }, work: (running: Instances) => Promise<void>): Promise<void> {
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const haproxyPort = await freePort();
  const instanceEnv = (port: number) => ({ API_KEYS: TEST_KEY, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${haproxyPort}/v1`, ...env });
  const instances: NodeProcess[] = [];
  let haproxy: RunningHaproxy | undefined;
  try {
    for (const port of ports) instances.push(await spawnService({ env: instanceEnv(port) }));
    await Promise.all(instances.map(waitUntilReady));
    const started = await startHaproxy(haproxyPort, ports.map((port) => `127.0.0.1:${port}`));
    haproxy = started;
    await Promise.all(ports.map((_, index) => started.waitUntilUp(index + 1)));
    const restart = async (index: number) => {
      instances[index] = await spawnService({ env: instanceEnv(ports[index]) });
      await waitUntilReady(instances[index]);
      await started.waitUntilUp(index + 1);
    };
    await work({ haproxy, instances, ports, restart });
  } finally {
    await haproxy?.stop();
    await Promise.all(instances.map((instance) => stopNode(instance)));
  }
}

export type Route = 'PostgreSQL' | 'PgBouncer';
