// The crash harness: the built service under concurrent creates, killed with SIGKILL at random moments and restarted,
// checked for acknowledged pets lost, names stored twice, ids reused and (SQLite) a damaged file; with --webhooks,
// for acknowledged pets whose pet.created never arrived.
// Usage: npm run crash -- --cycles 50 [--database sqlite|postgres|pgbouncer|both] [--webhooks] (--help for all)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_POSTGRES_URL, serviceBuild } from '@petstore/testing';
import { table } from '../bench/report';
import { type CrashDatabase, type DatabaseKind, pgbouncerDatabase, postgresDatabase, sqliteDatabase } from './databases';
import { type Figures, passed, runCrashHarness } from './harness';

const USAGE = `npm run crash -- --cycles N [options]
  --cycles N          kill-and-restart cycles per database (required)
  --database D        sqlite, postgres, pgbouncer (PostgreSQL through PgBouncer) or both (sqlite and postgres; default)
  --concurrency N     clients sending creates at once (default 16)
  --seed N            draws the kill delays and bodies (default: random, printed)
  --webhooks          also registers a local receiver as a webhook endpoint (signatures verified, one answer in ten
                      a 500) and, after the last restart, waits up to 30 s for every acknowledged pet's pet.created:
                      fails on one missing, a bad signature, or an event for a pet that is not stored
  --postgres-url URL  an existing database on the server to create the run's database on
                      (default TEST_POSTGRES_URL, else postgres://<user>@127.0.0.1:5432/test)
  --out FILE          the figures as JSON
  --keep              keep the run's folder (SQLite file, service log) and PostgreSQL database`;

interface Options {
  cycles: number;
  databases: DatabaseKind[];
  concurrency: number;
  seed: number;
  webhooks: boolean;
  postgresUrl: string;
  out?: string;
  keep: boolean;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      cycles: { type: 'string' }, database: { type: 'string' }, concurrency: { type: 'string' }, seed: { type: 'string' },
      'postgres-url': { type: 'string' }, out: { type: 'string' }, webhooks: { type: 'boolean' }, keep: { type: 'boolean' }, help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const integer = (text: string | undefined, name: string, min: number, fallback?: number) => {
    if (text === undefined && fallback !== undefined) return fallback;
    const value = /^\d{1,10}$/.test(text ?? '') ? Number(text) : NaN;
    if (!(value >= min && value < 2 ** 32)) throw new Error(`--${name} must be a whole number from ${min}, not ${text ?? 'missing'}\n${USAGE}`);
    return value;
  };
  const database = values.database ?? 'both';
  if (!['sqlite', 'postgres', 'pgbouncer', 'both'].includes(database)) throw new Error(`--database must be sqlite, postgres, pgbouncer or both, not ${database}`);
  return {
    cycles: integer(values.cycles, 'cycles', 1),
    databases: database === 'both' ? ['sqlite', 'postgres'] : [database as DatabaseKind],
    concurrency: integer(values.concurrency, 'concurrency', 1, 16),
    seed: integer(values.seed, 'seed', 0, Math.floor(Math.random() * 1e9)),
    webhooks: values.webhooks ?? false,
    postgresUrl: values['postgres-url'] ?? DEFAULT_POSTGRES_URL,
    out: values.out === undefined ? undefined : resolve(values.out),
    keep: values.keep ?? false,
  };
}

/** One database: a folder for its file and log, the cycles, then the folder and database removed unless kept. */
async function runOn(kind: DatabaseKind, options: Options): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), `petstore-crash-${kind}-`));
  let database: CrashDatabase;
  try {
    database =
      kind === 'sqlite' ? sqliteDatabase(dir) : kind === 'postgres' ? await postgresDatabase(options.postgresUrl) : await pgbouncerDatabase(options.postgresUrl);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let keep = options.keep;
  try {
    const figures = await runCrashHarness(database, {
      cycles: options.cycles,
      concurrency: options.concurrency,
      seed: options.seed,
      webhooks: options.webhooks,
      logFile: join(dir, 'service.log'),
      print: (line) => process.stdout.write(`${line}\n`),
      warn: (line) => process.stderr.write(`${line}\n`),
    });
    keep ||= !passed(figures);
    return figures;
  } catch (error) {
    keep = true;
    throw error;
  } finally {
    if (keep) {
      process.stderr.write(`${kind}: kept ${dir}${kind === 'sqlite' ? '' : ` and ${database.url}`}\n`);
    } else {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

const FIGURE_COLUMNS: Array<[string, (f: Figures) => string]> = [
  ['database', (f) => f.database],
  ['cycles', (f) => String(f.cycles)],
  ['acknowledged', (f) => String(f.acknowledged)],
  ['present', (f) => String(f.present)],
  ['lost', (f) => String(f.lost)],
  ['unacknowledged', (f) => String(f.unacknowledged)],
  ['of which stored', (f) => String(f.unacknowledgedStored)],
  ['retried', (f) => String(f.retried)],
  ['duplicates', (f) => String(f.duplicates)],
  ['reused ids', (f) => String(f.reusedIds)],
  ['integrity errors', (f) => (f.integrityErrors === null ? 'n/a' : String(f.integrityErrors))],
  ['other errors', (f) => String(f.errors)],
  ['seconds', (f) => f.seconds.toFixed(0)],
];

/** With --webhooks: pet.created events against the acknowledged pets. */
const WEBHOOK_COLUMNS: Array<[string, (f: NonNullable<Figures['webhooks']>) => string]> = [
  ['events expected', (w) => String(w.expected)],
  ['delivered', (w) => String(w.delivered)],
  ['missing', (w) => String(w.missing)],
  ['bad signatures', (w) => String(w.badSignatures)],
  ['for unstored pets', (w) => String(w.unstored)],
  ['delivered again', (w) => String(w.duplicates)],
  ['500s answered', (w) => String(w.refused)],
  ['waited s', (w) => w.waitedSeconds.toFixed(1)],
];

async function main(): Promise<void> {
  const options = parseOptions();
  // Tells which build of the service (changing under active work) these figures belong to.
  const build = serviceBuild();
  process.stdout.write(
    `crash harness: ${options.cycles} cycle(s) on ${options.databases.join(' and ')}, ${options.concurrency} clients, seed ${options.seed}` +
      `${options.webhooks ? ', with webhooks' : ''}; ` +
      `service build ${build}, node ${process.version}, ${cpus().length} CPUs\n`,
  );
  const results: Figures[] = [];
  const failures: string[] = [];
  for (const kind of options.databases) {
    try {
      results.push(await runOn(kind, options));
    } catch (error) {
      failures.push(`${kind}: the run stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const columns: Array<[string, (f: Figures) => string]> = [
    ...FIGURE_COLUMNS,
    ...(options.webhooks ? WEBHOOK_COLUMNS.map(([name, cell]): [string, (f: Figures) => string] => [name, (f) => (f.webhooks ? cell(f.webhooks) : 'n/a')]) : []),
  ];
  process.stdout.write(`\n${table(columns.map(([name]) => name), results.map((f) => columns.map(([, cell]) => cell(f))))}\n`);
  if (options.out) {
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, `${JSON.stringify({ seed: options.seed, cycles: options.cycles, serviceBuild: build, results, failures }, null, 2)}\n`);
  }
  const ok = !failures.length && results.every(passed);
  for (const failure of failures) process.stdout.write(`\n${failure}\n`);
  const webhooks = options.webhooks ? ', every pet.created delivered' : '';
  process.stdout.write(ok ? `no acknowledged pet lost, no duplicate, no id reused, no integrity error${webhooks}\n` : 'FAILED: see the problems above\n');
  process.exitCode = ok ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
