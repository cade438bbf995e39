import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import sqlite3 from 'sqlite3';
import { SERVICE_MAIN, spawnService } from './built-service';
import { type NodeProcess, stopNode, waitFor200 } from './node-process';

const KEY = 'pk_upgrade_trial_0123456789abcdef';
const AUTH = { authorization: `Bearer ${KEY}` };
/** Each loop paces itself to its share of the rate. */
const WORKERS = 8;
/** How long the earlier release serves alone, and beside the new build once it is ready. */
const ALONE_MS = 2_000;
const OVERLAP_AFTER_READY_MS = 3_000;
/** Longest wait for one answer: a service that stops answering fails the trial rather than holding it. */
const ANSWER_WITHIN_MS = 30_000;
/** Longest wait for the new build's backfill to make every acknowledged pet findable by name. */
const FOUND_WITHIN_MS = 60_000;

export type TrialDatabase = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface UpgradeTrialOptions {
  /** An empty database, the caller's to make and to drop. */
  database: TrialDatabase;
  /** The earlier release's built main.js. */
  from: string;
  /** The build upgraded to; this checkout's by default. */
  to?: string;
  /** Pets stored before the upgrade. */
  pets: number;
  /** Requests per second, half creates, half lists. */
  rate: number;
  /** Longest wait for an instance to be ready (the new build migrates the pets in this time). */
  readyWithinMs: number;
  logDir: string;
}

export interface UpgradeTrial {
  /** From the new build's spawn until /health/live, then /health/ready, answered 200. */
  liveMs: number;
  readyMs: number;
  /** Creates sent, and how long each took to be answered. */
  creates: { sent: number; acknowledged: number; p50Ms: number; p99Ms: number; maxMs: number; overOneSecond: number };
  lists: number;
  /** Every unexpected answer, as "POST 503 …", and every request left unanswered. */
  failures: string[];
  /** Acknowledged creates not stored under the id they were given, and names stored more than once. */
  stored: { missing: number; duplicates: number };
  /** Acknowledged pets that the new build's name search does not find in time. */
  unfound: string[];
  /** Before the new build started, and at the end. */
  bytes: { before: number; after: number };
}

/**
 * A rolling upgrade as an operator runs it: the new build starts beside the earlier release on the same database and
 * migrates under load. Reports what was seen for the caller to judge.
 */
export async function upgradeTrial(options: UpgradeTrialOptions): Promise<UpgradeTrial> {
  const url = databaseUrl(options.database);
  const start = (main: string, name: string) =>
    spawnService({ main, env: { API_KEYS: KEY, NODE_ENV: 'production', DATABASE_URL: url }, logFile: join(options.logDir, `${name}.log`) });
  const ready = async (main: string, name: string) => {
    const instance = await start(main, name);
    try {
      await waitFor200(instance, '/health/ready', {}, options.readyWithinMs);
      return instance;
    } catch (error) {
      await stopNode(instance);
      throw error;
    }
  };
  // The earlier release's schema, then its pets; its start writes their search keys if it knows them.
  await stopNode(await ready(options.from, 'earlier-release-migrating'));
  await seedPets(options.database, options.pets);
  const earlier = await ready(options.from, 'earlier-release');
  let upgraded: NodeProcess | undefined;
  try {
    const before = await databaseBytes(options.database);
    const origins = [earlier.origin];
    const load = startLoad(origins, options.rate);
    await sleep(ALONE_MS);
    upgraded = await start(options.to ?? SERVICE_MAIN, 'upgraded');
    const liveMs = await waitFor200(upgraded, '/health/live', {}, options.readyWithinMs);
    const readyMs = await waitFor200(upgraded, '/health/ready', {}, options.readyWithinMs);
    // A load balancer adds it; the earlier release goes on writing, as its pods do until the rollout replaces them.
    origins.push(upgraded.origin);
    await sleep(OVERLAP_AFTER_READY_MS);
    const report = await load.stop();
    const unfound = await unfoundByName(upgraded.origin, report.acknowledged);
    const latencies = report.createMs.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    return {
      liveMs,
      readyMs,
      creates: {
        sent: latencies.length,
        acknowledged: report.acknowledged.size,
        p50Ms: at(0.5),
        p99Ms: at(0.99),
        maxMs: latencies.at(-1) ?? 0,
        overOneSecond: latencies.filter((ms) => ms > 1_000).length,
      },
      lists: report.lists,
      failures: report.failures,
      stored: await storedOnce(options.database, report),
      unfound,
      bytes: { before, after: await databaseBytes(options.database) },
    };
  } finally {
    if (upgraded) await stopNode(upgraded);
    await stopNode(earlier);
  }
}

const databaseUrl = (database: TrialDatabase) => (database.kind === 'sqlite' ? `sqlite:${database.file}` : database.url);

// Names and statuses as the benchmark's seed makes them.
const SEED_SELECT = `'Pet ' || n, 1 + n % 50, CASE WHEN n % 1000 = 0 THEN 'pending' WHEN n % 10 = 5 THEN 'sold' ELSE 'available' END`;

/** Without search keys, as release 1.0 stored them; an earlier 1.1 keys them at start. */
async function seedPets(database: TrialDatabase, count: number): Promise<void> {
  if (database.kind === 'postgres') {
    await withPostgres(database.url, async (client) => {
      await client.query(`INSERT INTO pets (name, category_id, status) SELECT ${SEED_SELECT} FROM generate_series(1, $1) AS n`, [count]);
      await client.query('VACUUM ANALYZE pets');
    });
    return;
  }
  await withSqlite(database.file, (run) =>
    run(`WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ?) INSERT INTO pets (name, category_id, status) SELECT ${SEED_SELECT} FROM g`, [count]),
  );
}

/** The database's size as its server counts it: PostgreSQL's files, or SQLite's pages (the WAL's included). */
async function databaseBytes(database: TrialDatabase): Promise<number> {
  const sql =
    database.kind === 'postgres'
      ? 'SELECT pg_database_size(current_database()) AS bytes'
      : 'SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()';
  const [{ bytes }] = await query<{ bytes: string | number }>(database, sql);
  return Number(bytes);
}

/** Every acknowledged create stored under the id its 201 gave, and none of the trial's names stored twice. */
async function storedOnce(database: TrialDatabase, report: LoadReport): Promise<UpgradeTrial['stored']> {
  const rows = await query<{ id: string | number; name: string }>(database, `SELECT id, name FROM pets WHERE name LIKE '${report.prefix}%'`);
  const byName = new Map<string, number[]>();
  for (const { id, name } of rows) byName.set(name, [...(byName.get(name) ?? []), Number(id)]);
  const missing = [...report.acknowledged].filter(([name, id]) => !byName.get(name)?.includes(id)).length;
  return { missing, duplicates: [...byName.values()].filter((ids) => ids.length > 1).length };
}

/** Waits for the new build's backfill, up to FOUND_WITHIN_MS. */
async function unfoundByName(origin: string, acknowledged: Map<string, number>): Promise<string[]> {
  let unfound = [...acknowledged.keys()];
  const deadline = Date.now() + FOUND_WITHIN_MS;
  for (;;) {
    const still: string[] = [];
    for (let from = 0; from < unfound.length; from += 16) {
      await Promise.all(
        unfound.slice(from, from + 16).map(async (name) => {
          const response = await fetch(`${origin}/v1/pets?limit=100&name=${encodeURIComponent(name)}`, { headers: AUTH, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
          const pets = response.ok ? ((await response.json()) as Array<{ id: number }>) : [];
          if (!pets.some(({ id }) => id === acknowledged.get(name))) still.push(name);
        }),
      );
    }
    unfound = still;
    if (unfound.length === 0 || Date.now() > deadline) return unfound;
    await sleep(1_000);
  }
}

interface LoadReport {
  prefix: string;
  /** Name → the id its 201 gave. */
  acknowledged: Map<string, number>;
  createMs: number[];
  lists: number;
  failures: string[];
}

/** Round robin over `origins`, which may grow while it runs. */
function startLoad(origins: string[], rate: number): { stop: () => Promise<LoadReport> } {
  const report: LoadReport = { prefix: `upgrade-${randomUUID().slice(0, 8)}-`, acknowledged: new Map(), createMs: [], lists: 0, failures: [] };
  let stopping = false;
  let sent = 0;
  const send = async (what: string, path: string, init: RequestInit, expected: number) => {
    const origin = origins[sent++ % origins.length];
    try {
      const response = await fetch(`${origin}${path}`, { ...init, headers: { ...AUTH, ...init.headers }, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
      if (response.status === expected) return response;
      report.failures.push(`${what} ${response.status} ${(await response.text()).slice(0, 200)}`);
    } catch (error) {
      report.failures.push(`${what} no answer: ${(error as Error).message}`);
    }
    return undefined;
  };
  const worker = async (w: number) => {
    for (let n = 0; !stopping; n += 1) {
      const began = performance.now();
      if (n % 2 === 0) {
        const name = `${report.prefix}${w}-${n}`;
        const body = JSON.stringify({ name, categoryId: 1 + (n % 50), status: 'available' });
        const created = await send('POST /v1/pets', '/v1/pets', { method: 'POST', body, headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() } }, 201);
        report.createMs.push(performance.now() - began);
        if (created) report.acknowledged.set(name, ((await created.json()) as { id: number }).id);
      } else {
        await send('GET /v1/pets', `/v1/pets?limit=20${n % 4 === 1 ? '&status=sold' : ''}`, {}, 200);
        report.lists += 1;
      }
      await sleep(Math.max(0, (WORKERS * 1_000) / rate - (performance.now() - began)));
    }
  };
  const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
  return {
    stop: async () => {
      stopping = true;
      await Promise.all(workers);
      return report;
    },
  };
}

async function query<T>(database: TrialDatabase, sql: string): Promise<T[]> {
  if (database.kind === 'postgres') return withPostgres(database.url, async (client) => (await client.query(sql)).rows as T[]);
  return withSqlite(database.file, (_, all) => all<T>(sql));
}

async function withPostgres<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

type Run = (sql: string, params?: unknown[]) => Promise<void>;
type All = <T>(sql: string) => Promise<T[]>;

/** A connection of its own to the file, which waits for the services' locks as another process would. */
async function withSqlite<T>(file: string, work: (run: Run, all: All) => Promise<T>): Promise<T> {
  const database = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (error) => (error ? reject(error) : resolve(opened)));
  });
  database.configure('busyTimeout', 30_000);
  const run: Run = (sql, params = []) => new Promise((resolve, reject) => database.run(sql, params, (error) => (error ? reject(error) : resolve())));
  const all: All = <R>(sql: string) => new Promise<R[]>((resolve, reject) => database.all(sql, (error, rows) => (error ? reject(error) : resolve(rows as R[]))));
  try {
    return await work(run, all);
  } finally {
    await new Promise((resolve) => database.close(resolve));
  }
}
