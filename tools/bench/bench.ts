// The built service against a minimal node:http + better-sqlite3 server (the ceiling), and on PostgreSQL against
// itself on SQLite, driven by wrk; runs alternate A B C A B C so that drift on the machine hits every server alike.
// Usage: npm run bench -- --help
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createPostgresDatabase, DEFAULT_POSTGRES_URL, type PostgresDatabase, registerWebhookEndpoint, releasedVersions, serviceBuild, startWebhookReceiver, WEBHOOK_RECEIVER_ENV, type WebhookReceiver } from '@petstore/testing';
import { childCores, cpuSeconds, cpuSnapshot, mainThreadSeconds, otherCores } from './cpu';
import { checkWrk, LARGE_WORKLOADS, type Measurement, measure, VARIED_WORKLOADS, WORKLOADS, type Workload } from './load';
import { type OtherNode, prepareOtherNode } from './other-node';
import { type ClusterDatabase, startClusterDatabases } from './replicated';
import { formatSpread, ratio, spread, table } from './report';
import { migrate, migratedTemplate, seededCopy, seedPostgres, seedSqlite } from './seed';
import { streamsBench } from './streams';
import { OLDEST_UPGRADED, upgradeBench } from './upgrade';
import { API_KEY, type RunningServer, residentMb, startRaw, startReference, startService, startTrivial, stopServer } from './servers';

const USAGE = `npm run bench -- [options]
  --rounds N          alternating rounds per workload (default 3)
  --duration S        whole seconds per measured run (default 10)
  --warmup S          whole seconds of warm-up per server and workload, not measured (default 2)
  --connections N     concurrent connections of wrk's one thread (default 50)
  --pets N            pets seeded (default 10000)
  --database D        the service on sqlite, postgres or both (default both); the reference is always SQLite
  --workloads W       some of list, read, create (the same request again and again, or an id drawn anew), varied
                      (lists with a limit and status drawn anew), filtered (with a cursor, a category and a piece
                      of a name drawn anew too; the service only) and mixed (varied lists, reads by id and creates),
                      comma-separated (default all)
  --raw FILE          also run FILE, a raw reference server (node:http + better-sqlite3, e.g. the minimal one that
                      independent measurements use), on a copy of the reference's rows, and print the service
                      against it on the workloads it answers (all but filtered)
  --postgres-url URL  an existing database on the server to create the run's database on
                      (default TEST_POSTGRES_URL, else postgres://<user>@127.0.0.1:5432/test)
  --log-level L       the service's LOG_LEVEL (default info, its production default)
  --node-options S    the service's NODE_OPTIONS (default: package.json config.node_options, as npm start)
  --variant-node-options S
                      also run the service on SQLite with NODE_OPTIONS S, alternated with the others, and print it
                      against the default one: V8 flags compared within one run, on the same machine moment
  --variant-env K=V[,K=V]
                      the same, with these variables added to the variant's environment (alone or with
                      --variant-node-options), e.g. METRICS_PORT=0 to measure what the metrics cost
  --also-node PATH    also run the service on SQLite and the reference under the Node.js binary PATH (e.g. Node 20's
                      /usr/bin/node), alternated with the others: the same build, its dependencies installed again for
                      that Node.js (native addons are built per ABI); prints each beside the reference on its own Node.js
                      and the two Node.js lines against each other
  --baseline MAIN     also run another build of the service (e.g. a worktree's dist/apps/api/main.js, built from an
                      earlier commit, its node_modules beside it) on each database the service runs on, alternated with
                      the others; prints this build against it: a change measured before and after in one run
  --replicated        also run the service on PostgreSQL under Patroni (deploy/patroni, through its HAProxy): on a
                      one-member cluster and on a synchronous pair, alternated with the others; prints the pair against
                      the single member (what synchronous replication costs). As root, with patroni, etcd and haproxy
  --webhook-receiver  starts a local webhook receiver that answers 204 at once and registers it as an endpoint
                      (pet.created) of every service's database after seeding: each create is then also delivered.
                      After each run of creates, waits (up to 120 s) until that service has delivered every pet it
                      created; prints the waits, and creates/s counting them
  --large             instead of the comparison: the service's lists by status, by name and by category at 10,000 vs
                      1,000,000 pets, on --database (default both); a search's p99 against the status list's at 1M
  --upgrade           instead of the comparison: a rolling upgrade at 1,000,000 pets (--pets) on --database (default
                      both): release --from, built from its release commit, serves creates and lists while this build
                      starts beside it and migrates; time to live and to ready, how long creates took meanwhile, the
                      database's size before and after; exit 1 if an answer failed or a create was lost or not found
  --from VERSION      the release --upgrade starts from (default ${OLDEST_UPGRADED}, before the search keys)
  --streams           instead of the comparison: --stream-count event streams (GET /v1/events) open on one instance
                      on --database (default both): its memory idle and with them open, a create's delay to its event
                      at every stream (p50/p99), CPU per 1,000 deliveries; then a subscriber that reads nothing while
                      40,000 events pass: let go, and the instance's memory meanwhile. Exit 1 if it was not let go
  --stream-count N    streams for --streams (default 1000)
  --smoke             CI: 1 round of 2 s, 1,000 pets, no thresholds; exit 1 unless every answer was 2xx
  --out FILE          raw results as JSON (default tmp/bench/<mode>-<time>.json)
  --keep              keep the temporary databases and server logs`;

const LARGE_PETS = 1_000_000;
const LATENCY_TARGET = 1.25;
/** At 1M pets, a search's p99 against the status-filtered list's, on each database. */
const SEARCH_P99_TARGET = 2;
/** The share of its requests/s alone that the status list keeps beside two connections sending the worst search. */
const BESIDE_SCANS_TARGET = 0.8;
/** The service's p99 against the reference's on every workload, and its peak memory. */
const P99_TARGET = 1.5;
const PEAK_RSS_TARGET_MB = 140;
type DatabaseKind = 'sqlite' | 'postgres';

interface Options {
  mode: 'compare' | 'large' | 'smoke' | 'upgrade' | 'streams';
  streamCount: number;
  from: string;
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
  pets: number;
  databases: DatabaseKind[];
  workloads: Workload[];
  postgresUrl: string;
  logLevel: string;
  nodeOptions?: string;
  /** A second SQLite service with these NODE_OPTIONS and variables, compared with the first. */
  variantNodeOptions?: string;
  variantEnv?: Record<string, string>;
  baseline?: string;
  replicated: boolean;
  webhookReceiver: boolean;
  alsoNode?: string;
  raw?: string;
  out: string;
  keep: boolean;
}

interface Run extends Measurement {
  workload: string;
  server: string;
  round: number;
  /** CPU seconds of the server's process during the run, and of its PostgreSQL backends. */
  cpuSeconds: number;
  databaseCpuSeconds: number;
  /** Both together, per 1,000 requests. */
  cpuPer1k: number;
  /** The main thread alone, where the JavaScript runs: one core at most. */
  mainThreadUs: number;
  /** Cores that wrk kept busy (it runs one thread, so 1 means it was the bottleneck). */
  wrkCores: number;
  /** Cores that other processes on the machine kept busy during the run. */
  otherCores: number;
  /** With --webhook-receiver: seconds after a run of creates until every pet created was delivered. */
  catchUpSeconds?: number;
}

const CATCH_UP_LIMIT_MS = 120_000;

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string' }, duration: { type: 'string' }, warmup: { type: 'string' }, connections: { type: 'string' },
      pets: { type: 'string' }, database: { type: 'string' }, workloads: { type: 'string' }, 'postgres-url': { type: 'string' }, 'log-level': { type: 'string' },
      'node-options': { type: 'string' }, 'variant-node-options': { type: 'string' }, 'variant-env': { type: 'string' }, replicated: { type: 'boolean' }, baseline: { type: 'string' }, 'webhook-receiver': { type: 'boolean' }, 'also-node': { type: 'string' }, raw: { type: 'string' }, out: { type: 'string' }, large: { type: 'boolean' }, smoke: { type: 'boolean' },
      upgrade: { type: 'boolean' }, from: { type: 'string' }, streams: { type: 'boolean' }, 'stream-count': { type: 'string' },
      keep: { type: 'boolean' }, help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const mode = values.smoke ? 'smoke' : values.large ? 'large' : values.upgrade ? 'upgrade' : values.streams ? 'streams' : 'compare';
  if ([values.smoke, values.large, values.upgrade, values.streams].filter(Boolean).length > 1) throw new Error('--smoke, --large, --upgrade and --streams are one run each: give one of them');
  if (values['stream-count'] !== undefined && mode !== 'streams') throw new Error('--stream-count goes with --streams');
  if (values.from !== undefined && mode !== 'upgrade') throw new Error('--from goes with --upgrade');
  if (values.from !== undefined && !releasedVersions().includes(values.from)) throw new Error(`--from takes a released version (${releasedVersions().join(', ')}), not ${values.from}`);
  const smoke = mode === 'smoke';
  const integer = (text: string | undefined, fallback: number, name: string) => {
    const value = text === undefined ? fallback : /^\d{1,9}$/.test(text) ? Number(text) : NaN;
    if (!(value > 0)) throw new Error(`--${name} must be a whole number above 0, not ${text}\n${USAGE}`);
    return value;
  };
  const database = values.database ?? 'both';
  if (!['sqlite', 'postgres', 'both'].includes(database)) throw new Error(`--database must be sqlite, postgres or both, not ${database}`);
  const variant = values['variant-node-options'] !== undefined || values['variant-env'] !== undefined;
  if (variant && (mode !== 'compare' || database === 'postgres')) {
    throw new Error('--variant-node-options and --variant-env compare two services on SQLite: they need the comparison with --database sqlite or both');
  }
  if (values['also-node'] !== undefined && (mode !== 'compare' || database === 'postgres')) {
    throw new Error('--also-node compares the service on SQLite under two Node.js binaries: it needs the comparison with --database sqlite or both');
  }
  if (values.baseline !== undefined && (mode !== 'compare' || !existsSync(values.baseline))) {
    throw new Error(`--baseline takes the main.js of another build (${values.baseline} is not one) and goes with the comparison`);
  }
  if (values.replicated && mode !== 'compare') throw new Error('--replicated goes with the comparison, not with --large or --smoke');
  if (values['webhook-receiver'] && mode !== 'compare') throw new Error('--webhook-receiver goes with the comparison, not with --large or --smoke');
  const variantEnv = values['variant-env']?.split(',').map((pair) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(pair.trim()));
  if (variantEnv?.some((match) => !match)) throw new Error(`--variant-env takes NAME=value pairs, comma-separated, not ${values['variant-env']}`);
  const every = [...WORKLOADS, ...VARIED_WORKLOADS];
  const keys = values.workloads?.split(',') ?? every.map((workload) => workload.key);
  const workloads = every.filter((workload) => workload.key !== undefined && keys.includes(workload.key));
  if (workloads.length !== keys.length) throw new Error(`--workloads takes list, read, create, varied, filtered or mixed, comma-separated, not ${values.workloads}`);
  if (values.raw !== undefined && (mode === 'large' || !existsSync(values.raw))) throw new Error(`--raw takes a server's .mjs file (${values.raw} is not one) and goes with the comparison or --smoke`);
  return {
    mode,
    from: values.from ?? OLDEST_UPGRADED,
    streamCount: integer(values['stream-count'], 1_000, 'stream-count'),
    rounds: integer(values.rounds, smoke ? 1 : 3, 'rounds'),
    duration: integer(values.duration, smoke ? 2 : 10, 'duration'),
    warmup: integer(values.warmup, smoke ? 1 : 2, 'warmup'),
    connections: integer(values.connections, 50, 'connections'),
    pets: integer(values.pets, smoke ? 1_000 : mode === 'upgrade' ? LARGE_PETS : 10_000, 'pets'),
    databases: database === 'both' ? ['sqlite', 'postgres'] : [database as DatabaseKind],
    workloads,
    postgresUrl: values['postgres-url'] ?? DEFAULT_POSTGRES_URL,
    logLevel: values['log-level'] ?? 'info',
    nodeOptions: values['node-options'],
    variantNodeOptions: values['variant-node-options'],
    variantEnv: variantEnv && Object.fromEntries(variantEnv.map((match) => [match?.[1], match?.[2]])),
    baseline: values.baseline && resolve(values.baseline),
    replicated: values.replicated ?? false,
    webhookReceiver: values['webhook-receiver'] ?? false,
    alsoNode: values['also-node'],
    raw: values.raw && resolve(values.raw),
    out: resolve(values.out ?? `tmp/bench/${mode}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    keep: values.keep ?? false,
  };
}

/**
 * Runs every workload against each server in turn (A B C A B C) after a warm-up. With `receivers`, each run of creates
 * waits for its deliveries, so that they do not run into the next server's turn.
 */
async function alternate(
  options: Options,
  workloads: Workload[],
  servers: Record<string, RunningServer>,
  pets: Record<string, number>,
  receivers: Record<string, WebhookReceiver> = {},
) {
  const runs: Run[] = [];
  const peakRss: Record<string, Record<string, number>> = {};
  const mainPids = Object.values(servers).map((server) => server.pid);
  for (const workload of workloads) {
    const peaks: Record<string, number> = (peakRss[workload.name] = {});
    const sample = () => {
      for (const [name, server] of Object.entries(servers)) peaks[name] = Math.max(peaks[name] ?? 0, residentMb(server.pid, 'VmRSS'));
    };
    const sampler = setInterval(sample, 100);
    try {
      // Round 0 is the warm-up: recorded, never counted in the tables.
      for (let round = 0; round <= options.rounds; round++) {
        for (const [name, server] of Object.entries(servers)) {
          if (workload.serviceOnly && !isService(name)) continue;
          const backendsBefore = (await server.databasePids?.()) ?? [];
          const before = cpuSnapshot([...mainPids, ...backendsBefore]);
          const result = await measure(server.origin, workload, pets[name], round ? options.duration : options.warmup, options.connections, API_KEY).catch(
            (error: unknown) => {
              const state = server.exit ? `exited (${JSON.stringify(server.exit)})` : 'still running';
              throw new Error(`${name} (${server.origin}, ${state}): ${(error as Error).message}\nIts output ends:\n${server.outputTail()}`);
            },
          );
          // Backends that connected during the run count from their start.
          const backends = [...new Set([...backendsBefore, ...((await server.databasePids?.()) ?? [])])];
          const after = cpuSnapshot([...mainPids, ...backends]);
          const [cpu, databaseCpu] = [cpuSeconds(before, after, [server.pid]), cpuSeconds(before, after, backends)];
          const run: Run = {
            workload: workload.name, server: name, round, ...result,
            cpuSeconds: cpu, databaseCpuSeconds: databaseCpu, cpuPer1k: result.requests ? ((cpu + databaseCpu) / result.requests) * 1000 : 0,
            mainThreadUs: result.requests ? (mainThreadSeconds(before, after, server.pid) / result.requests) * 1e6 : 0,
            wrkCores: childCores(before, after), otherCores: otherCores(before, after),
          };
          runs.push(run);
          const receiver = receivers[name];
          if (workload.key === 'create' && receiver) {
            const created = runs.filter((r) => r.server === name && r.workload === workload.name).reduce((sum, r) => sum + r.requests, 0);
            const started = performance.now();
            await receiver.waitFor(() => receiver.counts().received >= created, CATCH_UP_LIMIT_MS);
            run.catchUpSeconds = (performance.now() - started) / 1000;
          }
          if (round) {
            process.stderr.write(
              `${workload.name}  round ${round}/${options.rounds}  ${name}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99.toFixed(2)} ms, ` +
                `${run.cpuPer1k.toFixed(3)} CPU s/1k req, main thread ${run.mainThreadUs.toFixed(0)} µs/req, wrk ${run.wrkCores.toFixed(2)} cores, other processes ${run.otherCores.toFixed(2)} cores` +
                `${run.catchUpSeconds === undefined ? '' : `, deliveries caught up ${run.catchUpSeconds.toFixed(1)} s later`}\n`,
            );
          }
        }
      }
    } finally {
      // Even when a run fails: a live interval would keep the process from exiting.
      clearInterval(sampler);
    }
    sample();
  }
  return { runs, peakRss };
}

/** Not the service: the generator's ceiling and the references. */
const NOT_SERVICE = new Set(['ceiling', 'reference', 'otherReference', 'raw']);
const isService = (name: string) => !NOT_SERVICE.has(name);

const measured = (runs: Run[], workload: string, server: string) => runs.filter((r) => r.workload === workload && r.server === server && r.round > 0);
const LABELS: Record<string, string> = {
  ceiling: 'wrk ceiling (trivial node:http)',
  reference: 'reference (SQLite)',
  sqlite: 'service (SQLite)',
  postgres: 'service (PostgreSQL)',
  variant: 'service (SQLite, variant)',
  baselineSqlite: 'baseline build (SQLite)',
  baselinePostgres: 'baseline build (PostgreSQL)',
  raw: 'raw reference (--raw)',
  single: 'service (Patroni, one member)',
  replicated: 'service (Patroni, synchronous pair)',
};
/** The servers run by --also-node's Node.js; their labels carry its version, known once it has run. */
const OTHER = { reference: 'otherReference', sqlite: 'otherSqlite' } as const;
const COLUMNS = ['', 'requests/s', 'p50 ms', 'p99 ms', 'CPU s/1k req', 'main thread µs/req', 'wrk cores', 'peak RSS MB', 'target'];
const METRICS: [keyof Run, number][] = [['rps', 0], ['p50', 2], ['p99', 2], ['cpuPer1k', 3], ['mainThreadUs', 0]];

/** One row of the targets table: measured, bound, and whether it holds. */
function verdict(label: string, measured: number, comparison: '≥' | '≤', bound: number): string[] {
  const met = comparison === '≥' ? measured >= bound : measured <= bound;
  return [label, measured.toFixed(2), `${comparison} ${bound.toFixed(2)}`, met ? 'met' : 'NOT MET'];
}

async function compare(options: Options, dir: string) {
  const verdicts: string[][] = [];
  const onSqlite = options.databases.includes('sqlite');
  const onPostgres = options.databases.includes('postgres');
  const template = await migratedTemplate(dir);
  const referenceDb = seededCopy(template, join(dir, 'reference.sqlite'), options.pets);
  const servers: Record<string, RunningServer> = {};
  const peakRssMb: Record<string, number> = {};
  let postgres: PostgresDatabase | undefined;
  let baselinePostgres: PostgresDatabase | undefined;
  let clusters: { single: ClusterDatabase; replicated: ClusterDatabase } | undefined;
  let result;
  const other: OtherNode | undefined = options.alsoNode === undefined ? undefined : await prepareOtherNode(options.alsoNode, dir);
  const labels: Record<string, string> = other
    ? { ...LABELS, [OTHER.reference]: `reference (SQLite, node ${other.version})`, [OTHER.sqlite]: `service (SQLite, node ${other.version})` }
    : LABELS;
  const webhooks: Record<string, { created: number; delivered: number }> = {};
  const receivers: Record<string, WebhookReceiver> = {};
  /** A receiver answering 204 at once and keeping only counts, so that what is measured is the service. */
  const withEndpoint = async (name: string, databaseUrl: string) => {
    if (!options.webhookReceiver) return {};
    const receiver = (receivers[name] = await startWebhookReceiver({ record: false }));
    await registerWebhookEndpoint(databaseUrl, receiver.url, receiver.secret);
    return WEBHOOK_RECEIVER_ENV;
  };
  try {
    if (onPostgres) {
      postgres = await createPostgresDatabase(options.postgresUrl, 'bench').catch((error: unknown) => {
        throw new Error(`PostgreSQL at ${redacted(options.postgresUrl)} did not answer (${String(error)}): start it, pass --postgres-url, or run --database sqlite`);
      });
      await migrate(postgres.url, join(dir, 'postgres-migrate.log'));
      await seedPostgres(postgres.url, options.pets);
      if (options.baseline) {
        baselinePostgres = await createPostgresDatabase(options.postgresUrl, 'bench_baseline');
        await migrate(baselinePostgres.url, join(dir, 'baseline-postgres-migrate.log'), options.baseline);
        await seedPostgres(baselinePostgres.url, options.pets);
      }
    }
    // The smoke run checks answers, not speed: no ceiling, to keep it short.
    if (options.mode !== 'smoke') servers.ceiling = await startTrivial(join(dir, 'trivial.log'));
    servers.reference = await startReference(referenceDb, join(dir, 'reference.log'));
    if (options.raw) servers.raw = await startRaw(options.raw, seededCopy(template, join(dir, 'raw.sqlite'), options.pets), join(dir, 'raw.log'));
    const service = { logLevel: options.logLevel, nodeOptions: options.nodeOptions };
    if (onSqlite) {
      const file = join(dir, 'service.sqlite');
      copyFileSync(referenceDb, file);
      const env = await withEndpoint('sqlite', `sqlite:${file}`);
      servers.sqlite = await startService({ ...service, env, databaseUrl: `sqlite:${file}`, logFile: join(dir, 'service-sqlite.log') });
    }
    if (options.variantNodeOptions !== undefined || options.variantEnv !== undefined) {
      const file = join(dir, 'variant.sqlite');
      copyFileSync(referenceDb, file);
      const env = await withEndpoint('variant', `sqlite:${file}`);
      servers.variant = await startService({
        ...service,
        nodeOptions: options.variantNodeOptions ?? options.nodeOptions,
        env: { ...env, ...options.variantEnv },
        databaseUrl: `sqlite:${file}`,
        logFile: join(dir, 'service-variant.log'),
      });
    }
    if (other) {
      const [referenceFile, file] = [join(dir, 'other-reference.sqlite'), join(dir, 'other-service.sqlite')];
      copyFileSync(referenceDb, referenceFile);
      copyFileSync(referenceDb, file);
      servers[OTHER.reference] = await startReference(referenceFile, join(dir, 'other-reference.log'), { node: other.node, script: other.referenceScript });
      const env = await withEndpoint(OTHER.sqlite, `sqlite:${file}`);
      servers[OTHER.sqlite] = await startService({
        ...service, env, node: other.node, main: other.serviceMain, databaseUrl: `sqlite:${file}`, logFile: join(dir, 'service-other.log'),
      });
    }
    if (postgres) {
      const env = await withEndpoint('postgres', postgres.url);
      servers.postgres = await startService({ ...service, env, databaseUrl: postgres.url, logFile: join(dir, 'service-postgres.log') });
    }
    if (options.baseline && onSqlite) {
      // Its own migrations, so that a later build's schema changes do not leak into it.
      const file = join(dir, 'baseline.sqlite');
      await migrate(`sqlite:${file}`, join(dir, 'baseline-migrate.log'), options.baseline);
      seedSqlite(file, options.pets);
      servers.baselineSqlite = await startService({ ...service, main: options.baseline, databaseUrl: `sqlite:${file}`, logFile: join(dir, 'baseline-sqlite.log') });
    }
    if (options.baseline && baselinePostgres) {
      servers.baselinePostgres = await startService({ ...service, main: options.baseline, databaseUrl: baselinePostgres.url, logFile: join(dir, 'baseline-postgres.log') });
    }
    if (options.replicated) {
      clusters = await startClusterDatabases(options.pets, 2, dir);
      for (const name of ['single', 'replicated'] as const) {
        const env = await withEndpoint(name, clusters[name].url);
        servers[name] = await startService({ ...service, env, databaseUrl: clusters[name].url, logFile: join(dir, `service-${name}.log`) });
      }
    }
    const pets = Object.fromEntries(Object.keys(servers).map((name) => [name, options.pets]));
    result = await alternate(options, options.workloads, servers, pets, receivers);
    const creates = WORKLOADS.find((workload) => workload.key === 'create')?.name;
    for (const [name, receiver] of Object.entries(receivers)) {
      const created = result.runs.filter((r) => r.server === name && r.workload === creates).reduce((sum, r) => sum + r.requests, 0);
      webhooks[name] = { created, delivered: receiver.counts().received };
    }
    // VmHWM, the peak over each process's life, must be read before it exits.
    for (const [name, server] of Object.entries(servers)) peakRssMb[name] = residentMb(server.pid, 'VmHWM');
  } finally {
    await Promise.all(Object.values(servers).map(stopServer));
    await Promise.all(Object.values(receivers).map((receiver) => receiver.close()));
    await clusters?.single.stop();
    await clusters?.replicated.stop();
    if (postgres && options.keep) process.stderr.write(`PostgreSQL database kept: ${postgres.name}\n`);
    else await postgres?.drop();
    await baselinePostgres?.drop();
  }
  for (const workload of options.workloads) {
    const runsOf = (server: string) => measured(result.runs, workload.name, server);
    const rss = result.peakRss[workload.name];
    const serverRow = (name: string) => {
      const runs = runsOf(name);
      return [
        labels[name], ...METRICS.map(([key, digits]) => formatSpread(spread(runs.map((r) => r[key] as number)), digits)),
        formatSpread(spread(runs.map((r) => r.wrkCores)), 2), rss[name].toFixed(0), '',
      ];
    };
    // Server and reference take turns within a round, so each round gives one ratio.
    const ratioRow = (label: string, a: string, b: string, target: string) => {
      const [as, bs] = [runsOf(a), runsOf(b)];
      const cell = (key: keyof Run) => formatSpread(spread(as.map((r, i) => (r[key] as number) / (bs[i][key] as number))), 2);
      return [label, ...METRICS.map(([key]) => cell(key)), '', ratio(rss[a], rss[b]), target];
    };
    const rows = Object.keys(servers).filter((name) => !workload.serviceOnly || isService(name)).map(serverRow);
    const target = workload.target;
    if (onSqlite && servers.raw && !workload.serviceOnly) rows.push(ratioRow('service/raw reference', 'sqlite', 'raw', ''));
    if (onSqlite && !workload.serviceOnly) rows.push(ratioRow('service/reference', 'sqlite', 'reference', `req/s ≥ ${target?.overReference.toFixed(2)}, p99 ≤ ${P99_TARGET.toFixed(2)}`));
    if (onSqlite && onPostgres) rows.push(ratioRow('postgres/sqlite', 'postgres', 'sqlite', target ? `req/s ≥ ${target.postgresOverSqlite.toFixed(2)}` : ''));
    if (other && !workload.serviceOnly) {
      rows.push(ratioRow(`service/reference, node ${other.version}`, OTHER.sqlite, OTHER.reference, ''));
      rows.push(ratioRow(`service: node ${process.version}/${other.version}`, 'sqlite', OTHER.sqlite, ''));
      rows.push(ratioRow(`reference: node ${process.version}/${other.version}`, 'reference', OTHER.reference, ''));
    }
    if (servers.baselineSqlite) rows.push(ratioRow('this build/baseline (SQLite)', 'sqlite', 'baselineSqlite', ''));
    if (servers.baselinePostgres) rows.push(ratioRow('this build/baseline (PostgreSQL)', 'postgres', 'baselinePostgres', ''));
    if (servers.replicated) rows.push(ratioRow('synchronous pair/one member', 'replicated', 'single', ''));
    if (servers.variant && !workload.serviceOnly) {
      rows.push(ratioRow('variant/reference', 'variant', 'reference', ''));
      rows.push(ratioRow('variant/sqlite', 'variant', 'sqlite', ''));
    }
    const notes: string[] = [];
    const medianRatio = (a: string, b: string, key: keyof Run) => spread(runsOf(a).map((r, i) => (r[key] as number) / (runsOf(b)[i][key] as number))).median;
    if (onSqlite && target) {
      verdicts.push(verdict(`${workload.name}: service/reference requests/s`, medianRatio('sqlite', 'reference', 'rps'), '≥', target.overReference));
      verdicts.push(verdict(`${workload.name}: service/reference p99`, medianRatio('sqlite', 'reference', 'p99'), '≤', P99_TARGET));
    }
    if (onSqlite && servers.raw && target?.overRaw !== undefined) {
      verdicts.push(verdict(`${workload.name}: service/raw reference requests/s`, medianRatio('sqlite', 'raw', 'rps'), '≥', target.overRaw));
      verdicts.push(verdict(`${workload.name}: service/raw reference p99`, medianRatio('sqlite', 'raw', 'p99'), '≤', P99_TARGET));
    }
    if (onSqlite && onPostgres && target) {
      verdicts.push(verdict(`${workload.name}: postgres/sqlite requests/s`, medianRatio('postgres', 'sqlite', 'rps'), '≥', target.postgresOverSqlite));
      verdicts.push(verdict(`${workload.name}: postgres/reference p99`, medianRatio('postgres', 'reference', 'p99'), '≤', P99_TARGET));
    }
    if (servers.ceiling && !workload.serviceOnly) {
      const median = (pick: (r: Run) => number) => spread(runsOf('ceiling').map(pick)).median;
      notes.push(
        `wrk: ${median((r) => r.rps).toFixed(0)} req/s against the trivial server with ${median((r) => r.wrkCores).toFixed(2)} of its one core, ` +
          `about ${median((r) => r.rps / r.wrkCores).toFixed(0)} req/s with all of it`,
      );
    }
    for (const name of ['postgres', 'single', 'replicated'].filter((each) => servers[each])) {
      const share = spread(runsOf(name).map((r) => (r.databaseCpuSeconds / r.requests) * 1000)).median;
      notes.push(`${labels[name]}: CPU includes its PostgreSQL backends (on the primary), ${share.toFixed(3)} s/1k req of it`);
    }
    process.stdout.write(`\n${workload.name}\n${table(COLUMNS, rows)}\n${notes.map((line) => `${line}\n`).join('')}`);
  }
  process.stdout.write(`\n${table(['server', 'start-up ms', 'ready ms', 'peak RSS MB (VmHWM)'], Object.entries(servers).map(([name, s]) => [
    labels[name], s.startupMs.toFixed(0), s.readyMs?.toFixed(0) ?? '-', peakRssMb[name].toFixed(0),
  ]))}\n`);
  for (const [name, { created, delivered }] of Object.entries(webhooks)) {
    // The pace of creates the service keeps up with while delivering them.
    const runs = result.runs.filter((r) => r.server === name && r.round > 0 && r.catchUpSeconds !== undefined);
    const catchUp = formatSpread(spread(runs.map((r) => r.catchUpSeconds ?? 0)), 1);
    const sustained = formatSpread(spread(runs.map((r) => r.requests / (r.requests / r.rps + (r.catchUpSeconds ?? 0)))));
    process.stdout.write(
      `webhooks: ${labels[name]}: ${delivered} deliveries received for ${created} pets created (warm-ups included); after a measured run of ` +
        `creates, the deliveries caught up in ${catchUp} s; creates/s counting that time: ${sustained}\n`,
    );
  }
  for (const name of ['sqlite', 'postgres'].filter((n) => servers[n])) verdicts.push(verdict(`${labels[name]}: peak RSS MB`, peakRssMb[name], '≤', PEAK_RSS_TARGET_MB));
  if (options.mode === 'compare') {
    process.stdout.write(`\ntargets (issue 45; medians over the rounds, compare with --rounds 5 or more on a quiet machine)\n${table(['', 'measured', 'target', ''], verdicts)}\n`);
  }
  return { ...result, startup: startupOf(servers), peakRssMb, targets: verdicts, ...(options.webhookReceiver ? { webhooks } : {}) };
}

async function large(options: Options, dir: string) {
  const sizes = { small: options.pets, large: LARGE_PETS };
  const servers: Record<string, RunningServer> = {};
  const pets: Record<string, number> = {};
  const label = (database: DatabaseKind, size: keyof typeof sizes) => `${database} ${sizes[size].toLocaleString('en')}`;
  const postgresDatabases: PostgresDatabase[] = [];
  const workloads = Object.values(LARGE_WORKLOADS);
  let result;
  try {
    const seeded = performance.now();
    for (const database of options.databases) {
      const template = database === 'sqlite' ? await migratedTemplate(dir) : undefined;
      for (const size of ['small', 'large'] as const) {
        let databaseUrl: string;
        if (template) {
          databaseUrl = `sqlite:${seededCopy(template, join(dir, `${size}.sqlite`), sizes[size])}`;
        } else {
          const made = await createPostgresDatabase(options.postgresUrl, `bench_${size}`);
          postgresDatabases.push(made);
          await migrate(made.url, join(dir, `postgres-${size}-migrate.log`));
          await seedPostgres(made.url, sizes[size]);
          databaseUrl = made.url;
        }
        const name = label(database, size);
        pets[name] = sizes[size];
        servers[name] = await startService({ databaseUrl, logFile: join(dir, `${database}-${size}.log`), logLevel: options.logLevel, nodeOptions: options.nodeOptions });
      }
    }
    process.stderr.write(`seeded and started in ${((performance.now() - seeded) / 1000).toFixed(1)} s\n`);
    result = await alternate(options, workloads, servers, pets);
  } finally {
    await Promise.all(Object.values(servers).map(stopServer));
    await Promise.all(postgresDatabases.map((made) => made.drop()));
  }
  const median = (runs: Run[], pick: (r: Run) => number) => spread(runs.map(pick)).median;
  const verdicts: string[][] = [];
  for (const database of options.databases) {
    const [small, big] = [label(database, 'small'), label(database, 'large')];
    const line = (workload: Workload) => {
      const [few, many] = [measured(result.runs, workload.name, small), measured(result.runs, workload.name, big)];
      const cell = (runs: Run[], pick: (r: Run) => number, digits: number) => formatSpread(spread(runs.map(pick)), digits);
      return [
        workload.path.replace('/v1/pets?limit=20&', ''),
        cell(few, (r) => r.p99, 2), cell(many, (r) => r.rps, 0), cell(many, (r) => r.p50, 2), cell(many, (r) => r.p99, 2), cell(many, (r) => r.cpuPer1k, 3),
        ratio(median(many, (r) => r.p99), median(few, (r) => r.p99)),
      ];
    };
    process.stdout.write(`\nservice on ${database}: GET /v1/pets?limit=20&…\n${table(
      ['filter', `p99 ms at ${sizes.small.toLocaleString('en')}`, 'requests/s at 1M', 'p50 ms at 1M', 'p99 ms at 1M', 'CPU s/1k req at 1M', 'p99 1M / 10k'],
      workloads.map(line),
    )}\n`);
    const p99At1M = (workload: Workload) => median(measured(result.runs, workload.name, big), (r) => r.p99);
    const statusP99 = p99At1M(LARGE_WORKLOADS.statusMany);
    for (const [what, workload] of [['many', LARGE_WORKLOADS.nameMany], ['few', LARGE_WORKLOADS.nameFew]] as const) {
      verdicts.push(verdict(`${database}: name search, ${what} matches, p99 / status list p99 at 1M`, p99At1M(workload) / statusP99, '≤', SEARCH_P99_TARGET));
    }
    verdicts.push(verdict(`${database}: status list p99, 1M / 10k`, statusP99 / median(measured(result.runs, LARGE_WORKLOADS.statusMany.name, small), (r) => r.p99), '≤', LATENCY_TARGET));
    const rpsAt1M = (workload: Workload) => median(measured(result.runs, workload.name, big), (r) => r.rps);
    verdicts.push(verdict(`${database}: status list beside two worst searches / alone, requests/s at 1M`, rpsAt1M(LARGE_WORKLOADS.statusBesideScans) / rpsAt1M(LARGE_WORKLOADS.statusMany), '≥', BESIDE_SCANS_TARGET));
  }
  process.stdout.write(`\ntargets (issues 48 and 56; medians over the rounds)\n${table(['', 'measured', 'target', ''], verdicts)}\n`);
  process.stdout.write(`\n${table(['service on', 'start-up ms', 'ready ms'], Object.entries(servers).map(([name, s]) => [
    `${name} pets`, s.startupMs.toFixed(0), s.readyMs?.toFixed(0) ?? '-',
  ]))}\n`);
  return { ...result, startup: startupOf(servers), targets: verdicts };
}

function startupOf(servers: Record<string, RunningServer>) {
  return Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { startupMs: s.startupMs, readyMs: s.readyMs }]));
}

function redacted(url: string): string {
  const shown = new URL(url);
  if (shown.password) shown.password = '***';
  return shown.href;
}

async function main(): Promise<void> {
  const options = parseOptions();
  const wrk = await checkWrk();
  const build = serviceBuild();
  if (options.mode === 'streams') process.stdout.write(`streams: ${options.streamCount} event streams, service on ${options.databases.join(' and ')}; node ${process.version}, ${cpus().length} CPUs\n`);
  else process.stdout.write(
    `${options.mode}: ${options.mode === 'large' ? `${options.pets} vs ${LARGE_PETS}` : options.pets} pets, ${options.rounds} round(s) × ${options.duration} s, ` +
      `service on ${options.databases.join(' and ')}, ${wrk} -t1 -c${options.connections}, service LOG_LEVEL=${options.logLevel}` +
      `${options.nodeOptions ? `, NODE_OPTIONS=${options.nodeOptions}` : ''}` +
      `${options.variantNodeOptions !== undefined ? `; variant: NODE_OPTIONS=${options.variantNodeOptions}` : ''}` +
      `${options.variantEnv ? `; variant env: ${Object.entries(options.variantEnv).map(([name, value]) => `${name}=${value}`).join(' ')}` : ''}` +
      `${options.baseline ? `; baseline build: ${options.baseline}` : ''}` +
      `${options.replicated ? '; also on Patroni: one member, and a synchronous pair' : ''}` +
      `${options.webhookReceiver ? '; one webhook endpoint per service (a local receiver answering 204)' : ''}` +
      `; node ${process.version}, ${cpus().length} CPUs\n`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  try {
    if (options.mode === 'streams') {
      const { runs, failed } = await streamsBench({ databases: options.databases, postgresUrl: options.postgresUrl, streams: options.streamCount, creates: 200 }, dir);
      mkdirSync(dirname(options.out), { recursive: true });
      writeFileSync(options.out, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, serviceBuild: build, options, runs }, null, 2)}\n`);
      process.stdout.write(`raw results: ${options.out}\n`);
      process.exitCode = failed ? 1 : 0;
      return;
    }
    if (options.mode === 'upgrade') {
      const { upgrades, failed } = await upgradeBench(options, dir);
      mkdirSync(dirname(options.out), { recursive: true });
      writeFileSync(options.out, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, serviceBuild: build, options, upgrades }, null, 2)}\n`);
      process.stdout.write(`raw results: ${options.out}\n`);
      process.exitCode = failed ? 1 : 0;
      return;
    }
    const result = options.mode === 'large' ? await large(options, dir) : await compare(options, dir);
    mkdirSync(dirname(options.out), { recursive: true });
    const meta = { date: new Date().toISOString(), node: process.version, cpus: cpus().length, wrk, serviceBuild: build, options };
    writeFileSync(options.out, `${JSON.stringify({ ...meta, ...result }, null, 2)}\n`);
    const counted = result.runs.filter((r) => r.round > 0);
    const most = (pick: (r: Run) => number) => Math.max(...counted.map(pick)).toFixed(2);
    process.stdout.write(
      `\nwrk kept up to ${most((r) => r.wrkCores)} of its one core busy, other processes up to ${most((r) => r.otherCores)} cores, ` +
        `during a measured run\nraw results: ${options.out}\n`,
    );
    // A run with failed requests measured something other than the workload.
    const failed = result.runs.filter((r) => r.non2xx || r.errors || r.timeouts || !r.requests);
    for (const r of failed) process.stderr.write(`not all 2xx: ${r.server} ${r.workload} round ${r.round}: ${r.requests} answers, ${r.non2xx} not 2xx, ${r.errors} socket errors, ${r.timeouts} timeouts\n`);
    process.exitCode = failed.length ? 1 : 0;
  } finally {
    if (options.keep) process.stderr.write(`databases and logs kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
