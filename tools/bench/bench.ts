// Issue 6's benchmark: the built service against a minimal node:http + better-sqlite3 server (the ceiling), on
// fresh databases with the same rows, runs alternated A B A B so that drift on the machine hits both alike.
// Usage: npm run bench -- [--rounds 3] [--duration 10] [--large | --smoke] [--out file.json]  (--help for all)
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuSnapshot, otherCores } from './cpu';
import { LARGE_WORKLOADS, type Measurement, WORKLOADS, type Workload, measure } from './load';
import { formatSpread, ratio, spread, table } from './report';
import { migratedTemplate, seededCopy } from './seed';
import { serviceBuild } from '../built-service';
import { type RunningServer, residentMb, startReference, startService, stopServer } from './servers';

const USAGE = `npm run bench -- [options]
  --rounds N        alternating rounds per workload (default 3)
  --duration S      seconds per measured run (default 10)
  --warmup S        seconds of warm-up per server and workload, not measured (default 2)
  --connections N   concurrent connections (default 50)
  --pets N          pets seeded (default 10000)
  --log-level L     the service's LOG_LEVEL (default info, its production default)
  --node-options S  the service's NODE_OPTIONS (default: package.json config.node_options, as npm start)
  --large           the service's status-filtered list at 10,000 vs 1,000,000 pets, instead of the comparison
  --smoke           CI: 1 round of 2 s, 1,000 pets, no thresholds; exit 1 unless every answer was 2xx
  --out FILE        raw results as JSON (default tmp/bench/<mode>-<time>.json)
  --keep            keep the temporary databases and server logs`;

const LARGE_PETS = 1_000_000;
const LATENCY_TARGET = 1.25;

interface Options {
  mode: 'compare' | 'large' | 'smoke';
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
  pets: number;
  logLevel: string;
  nodeOptions?: string;
  out: string;
  keep: boolean;
}

interface Run extends Measurement {
  workload: string;
  server: string;
  round: number;
  /** Cores that other processes on the machine kept busy during the run (0 on a quiet machine). */
  otherCores: number;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string' }, duration: { type: 'string' }, warmup: { type: 'string' }, connections: { type: 'string' },
      pets: { type: 'string' }, 'log-level': { type: 'string' }, 'node-options': { type: 'string' }, out: { type: 'string' },
      large: { type: 'boolean' }, smoke: { type: 'boolean' }, keep: { type: 'boolean' }, help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const mode = values.smoke ? 'smoke' : values.large ? 'large' : 'compare';
  const smoke = mode === 'smoke';
  const number = (text: string | undefined, fallback: number, name: string) => {
    const value = text === undefined ? fallback : Number(text);
    if (!(value > 0)) throw new Error(`--${name} must be a positive number, not ${text}`);
    return value;
  };
  return {
    mode,
    rounds: number(values.rounds, smoke ? 1 : 3, 'rounds'),
    duration: number(values.duration, smoke ? 2 : 10, 'duration'),
    warmup: number(values.warmup, smoke ? 1 : 2, 'warmup'),
    connections: number(values.connections, 50, 'connections'),
    pets: number(values.pets, smoke ? 1_000 : 10_000, 'pets'),
    logLevel: values['log-level'] ?? 'info',
    nodeOptions: values['node-options'],
    out: resolve(values.out ?? `tmp/bench/${mode}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    keep: values.keep ?? false,
  };
}

/** Runs every workload against each server in turn, A B A B, after a warm-up; peak VmRSS per server and workload. */
async function alternate(options: Options, workloads: Workload[], servers: Record<string, RunningServer>, pets: Record<string, number>) {
  const runs: Run[] = [];
  const peakRss: Record<string, Record<string, number>> = {};
  const pids = Object.values(servers).map((server) => server.pid);
  for (const workload of workloads) {
    const peaks: Record<string, number> = (peakRss[workload.name] = {});
    const sample = () => {
      for (const [name, server] of Object.entries(servers)) peaks[name] = Math.max(peaks[name] ?? 0, residentMb(server.pid, 'VmRSS'));
    };
    const sampler = setInterval(sample, 100);
    // Round 0 is the warm-up: recorded, never counted in the tables.
    for (let round = 0; round <= options.rounds; round++) {
      for (const [name, server] of Object.entries(servers)) {
        const before = cpuSnapshot(pids);
        const result = await measure(server.baseUrl, workload, pets[name], round ? options.duration : options.warmup, options.connections);
        const run = { workload: workload.name, server: name, round, ...result, otherCores: otherCores(before, cpuSnapshot(pids)) };
        runs.push(run);
        if (round) {
          process.stderr.write(
            `${workload.name}  round ${round}/${options.rounds}  ${name}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms, ` +
              `other processes ${run.otherCores.toFixed(2)} cores\n`,
          );
        }
      }
    }
    clearInterval(sampler);
    sample();
  }
  return { runs, peakRss };
}

const measured = (runs: Run[], workload: string, server: string) => runs.filter((r) => r.workload === workload && r.server === server && r.round > 0);

async function compare(options: Options, dir: string) {
  const template = await migratedTemplate(dir);
  const serviceDb = seededCopy(template, join(dir, 'service.sqlite'), options.pets);
  const referenceDb = join(dir, 'reference.sqlite');
  copyFileSync(serviceDb, referenceDb);
  const servers: Record<string, RunningServer> = {};
  const peakRssMb: Record<string, number> = {};
  let result;
  try {
    servers.service = await startService({ database: serviceDb, logFile: join(dir, 'service.log'), logLevel: options.logLevel, nodeOptions: options.nodeOptions });
    servers.reference = await startReference({ database: referenceDb, logFile: join(dir, 'reference.log') });
    result = await alternate(options, WORKLOADS, servers, { service: options.pets, reference: options.pets });
    // VmHWM: the peak over each process's whole life, start-up included; read before it exits.
    for (const [name, server] of Object.entries(servers)) peakRssMb[name] = residentMb(server.pid, 'VmHWM');
  } finally {
    await Promise.all(Object.values(servers).map(stopServer));
  }
  for (const workload of WORKLOADS) {
    const [svc, ref] = [measured(result.runs, workload.name, 'service'), measured(result.runs, workload.name, 'reference')];
    const row = (label: string, pick: (r: Run) => number, digits: number, target: string) => {
      const [a, b] = [spread(svc.map(pick)), spread(ref.map(pick))];
      return [label, formatSpread(a, digits), formatSpread(b, digits), ratio(a.median, b.median), target];
    };
    const rss = result.peakRss[workload.name];
    process.stdout.write(`\n${workload.name}\n${table(['', 'service', 'reference', 'service/reference', 'target'], [
      row('requests/s', (r) => r.rps, 0, `≥ ${workload.target?.toFixed(2)}`),
      row('p50 ms', (r) => r.p50, 0, ''),
      row('p99 ms', (r) => r.p99, 0, '≤ 2.00'),
      ['peak RSS MB', rss.service.toFixed(0), rss.reference.toFixed(0), ratio(rss.service, rss.reference), 'service ≤ 150'],
    ])}\n`);
  }
  process.stdout.write(`\n${table(['server', 'start-up ms', 'ready ms', 'peak RSS MB (VmHWM)'], Object.entries(servers).map(([name, s]) => [
    name, s.startupMs.toFixed(0), s.readyMs?.toFixed(0) ?? '-', peakRssMb[name].toFixed(0),
  ]))}\n`);
  return { ...result, startup: startupOf(servers), peakRssMb };
}

async function large(options: Options, dir: string) {
  const template = await migratedTemplate(dir);
  const pets = { small: options.pets, large: LARGE_PETS };
  const seeded = performance.now();
  const databases = { small: seededCopy(template, join(dir, 'small.sqlite'), pets.small), large: seededCopy(template, join(dir, 'large.sqlite'), pets.large) };
  process.stderr.write(`seeded ${pets.small} + ${pets.large} pets in ${((performance.now() - seeded) / 1000).toFixed(1)} s\n`);
  const servers: Record<string, RunningServer> = {};
  let result;
  try {
    for (const size of ['small', 'large'] as const) {
      servers[size] = await startService({ database: databases[size], logFile: join(dir, `${size}.log`), logLevel: options.logLevel, nodeOptions: options.nodeOptions });
    }
    result = await alternate(options, LARGE_WORKLOADS, servers, pets);
  } finally {
    await Promise.all(Object.values(servers).map(stopServer));
  }
  for (const workload of LARGE_WORKLOADS) {
    const [small, big] = (['small', 'large'] as const).map((size) => measured(result.runs, workload.name, size));
    const cell = (runs: Run[], pick: (r: Run) => number, digits: number) => formatSpread(spread(runs.map(pick)), digits);
    const median = (runs: Run[], pick: (r: Run) => number) => spread(runs.map(pick)).median;
    const line = (label: string, runs: Run[]) => [label, cell(runs, (r) => r.rps, 0), cell(runs, (r) => r.mean, 2), cell(runs, (r) => r.p50, 0), cell(runs, (r) => r.p99, 0)];
    process.stdout.write(`\nservice, ${workload.name}\n${table(['pets', 'requests/s', 'mean ms', 'p50 ms', 'p99 ms'], [
      line(pets.small.toLocaleString('en'), small),
      line(pets.large.toLocaleString('en'), big),
      [`1M / 10k (latency target ≤ ${LATENCY_TARGET})`, ratio(median(big, (r) => r.rps), median(small, (r) => r.rps)),
        ...(['mean', 'p50', 'p99'] as const).map((key) => ratio(median(big, (r) => r[key]), median(small, (r) => r[key])))],
    ])}\n`);
  }
  process.stdout.write(`\n${table(['service on', 'start-up ms', 'ready ms'], Object.entries(servers).map(([size, s]) => [
    `${pets[size as keyof typeof pets].toLocaleString('en')} pets`, s.startupMs.toFixed(0), s.readyMs?.toFixed(0) ?? '-',
  ]))}\n`);
  return { ...result, startup: startupOf(servers) };
}

function startupOf(servers: Record<string, RunningServer>) {
  return Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { startupMs: s.startupMs, readyMs: s.readyMs }]));
}

async function main(): Promise<void> {
  const options = parseOptions();
  // Tells which build of the service (changing under active work) these figures belong to.
  const build = serviceBuild();
  process.stdout.write(
    `${options.mode}: ${options.mode === 'large' ? `${options.pets} vs ${LARGE_PETS}` : options.pets} pets, ${options.rounds} round(s) × ${options.duration} s, ` +
      `${options.connections} connections, service LOG_LEVEL=${options.logLevel}${options.nodeOptions ? `, NODE_OPTIONS=${options.nodeOptions}` : ''}; ` +
      `node ${process.version}, ${cpus().length} CPUs\n`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  try {
    const result = options.mode === 'large' ? await large(options, dir) : await compare(options, dir);
    mkdirSync(dirname(options.out), { recursive: true });
    const meta = { date: new Date().toISOString(), node: process.version, cpus: cpus().length, serviceBuild: build, options };
    writeFileSync(options.out, `${JSON.stringify({ ...meta, ...result }, null, 2)}\n`);
    const busiest = Math.max(...result.runs.filter((r) => r.round > 0).map((r) => r.otherCores));
    process.stdout.write(`\nother processes kept up to ${busiest.toFixed(2)} cores busy during a measured run\nraw results: ${options.out}\n`);
    // A run with failed requests measured something else than the workload: no figure from it can be trusted.
    const failed = result.runs.filter((r) => r.non2xx || r.errors || r.timeouts || !r.ok);
    for (const r of failed) process.stderr.write(`not all 2xx: ${r.server} ${r.workload} round ${r.round}: ${r.ok} 2xx, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts\n`);
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
