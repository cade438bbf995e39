import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WRK_SCRIPT = join(__dirname, 'wrk.lua');

export interface Workload {
  name: string;
  /** What `--workloads` calls it. */
  key?: 'list' | 'read' | 'create' | 'varied' | 'filtered' | 'mixed';
  /** The floors for requests/s: service/reference on SQLite, and the service on PostgreSQL over SQLite. */
  target?: { overReference: number; postgresOverSqlite: number; overRaw?: number };
  method: 'GET' | 'POST';
  /** `{id}` stands for a seeded id drawn anew for each request. */
  path: string;
  body?: string;
  /** Lines ("METHOD path [body]"), one drawn per request in place of `path`: the same sequence for every server. */
  requests?: (pets: number) => string[];
  /** The references have no name or category filter. */
  serviceOnly?: boolean;
  /** Sent meanwhile, unmeasured, by a wrk of its own. */
  beside?: { path: string; connections: number };
}

const NEW_PET = JSON.stringify({ name: 'Bench', categoryId: 7, status: 'available' });

export const WORKLOADS: Workload[] = [
  { name: 'GET /v1/pets?limit=20', key: 'list', target: { overReference: 1.2, postgresOverSqlite: 0.9 }, method: 'GET', path: '/v1/pets?limit=20' },
  // A random seeded id per request, so that the database is not asked for one hot row.
  { name: 'GET /v1/pets/{id}', key: 'read', target: { overReference: 0.8, postgresOverSqlite: 0.9 }, method: 'GET', path: '/v1/pets/{id}' },
  { name: 'POST /v1/pets', key: 'create', target: { overReference: 2.0, postgresOverSqlite: 0.9 }, method: 'POST', path: '/v1/pets', body: NEW_PET },
];

/** A generator of its own with a fixed seed (mulberry32), so that every run draws the same requests. */
function seeded(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

const LINES = 10_000;
const STATUSES = ['', 'available', 'pending', 'sold'];
const cursorAfter = (id: number) => Buffer.from(`p1.${id}`).toString('base64url');

/** Only what both references answer too. */
const variedList = (random: (below: number) => number) => {
  const status = STATUSES[random(STATUSES.length)];
  return `GET /v1/pets?limit=${1 + random(100)}${status ? `&status=${status}` : ''}`;
};

/** Also a cursor, a category and a piece of a seeded name, some of two characters, which no trigram serves. */
const variedFilteredList = (random: (below: number) => number, pets: number) => {
  const query = [variedList(random).slice('GET /v1/pets?'.length)];
  if (random(2)) query.push(`cursor=${cursorAfter(1 + random(pets))}`);
  if (random(2)) query.push(`categoryId=${1 + random(50)}`);
  const names = [`pet%20${1 + random(pets)}`, `t%20${1 + random(99)}`, `${random(10)}${random(10)}`];
  if (random(2)) query.push(`name=${names[random(names.length)]}`);
  return `GET /v1/pets?${query.join('&')}`;
};

const drawn = (seed: number, line: (random: (below: number) => number, pets: number) => string) => (pets: number) => {
  const random = seeded(seed);
  return Array.from({ length: LINES }, () => line(random, pets));
};

const mixed = (random: (below: number) => number, pets: number) => {
  const draw = random(10);
  if (draw < 6) return variedList(random);
  return draw < 9 ? `GET /v1/pets/${1 + random(pets)}` : `POST /v1/pets ${NEW_PET}`;
};

/** A page cache or a merge keyed by URL seldom meets the same request here, as in real use. */
export const VARIED_WORKLOADS: Workload[] = [
  { name: 'varied lists', key: 'varied', target: { overReference: 1.0, postgresOverSqlite: 0.9, overRaw: 0.8 }, method: 'GET', path: '/v1/pets', requests: drawn(56, variedList) },
  { name: 'varied filtered lists', key: 'filtered', method: 'GET', path: '/v1/pets', requests: drawn(57, variedFilteredList), serviceOnly: true },
  { name: 'mixed', key: 'mixed', target: { overReference: 1.0, postgresOverSqlite: 0.9 }, method: 'GET', path: '/v1/pets', requests: drawn(58, mixed) },
];

const listOf = (query: string): Workload => ({ name: `GET /v1/pets?limit=20&${query}`, method: 'GET', path: `/v1/pets?limit=20&${query}` });

/**
 * "pet 1" matches many seeded names, "pet 99999" a few at the highest ids (the worst place for a walk in id order);
 * "99" and "é" are shorter than a trigram.
 */
export const LARGE_WORKLOADS = {
  statusMany: listOf('status=available'),
  statusFew: listOf('status=pending'),
  nameMany: listOf('name=pet%201'),
  nameFew: listOf('name=pet%2099999'),
  shortMany: listOf('name=99'),
  shortNone: listOf('name=%C3%A9'),
  category: listOf('categoryId=7'),
  // The list by status while two connections send a search no name matches, against the same list alone: what one
  // slow search costs everyone else.
  statusBesideScans: { ...listOf('status=available'), name: 'GET /v1/pets?limit=20&status=available beside 2 × name=é', beside: { path: '/v1/pets?limit=20&name=%C3%A9', connections: 2 } },
} satisfies Record<string, Workload>;

export interface Measurement {
  /** Completed requests over wrk's measured duration. */
  rps: number;
  /** Latency in ms of every answer (wrk does not tell 2xx apart). */
  p50: number;
  p99: number;
  mean: number;
  max: number;
  requests: number;
  /** Not 2xx (counted by wrk.lua), socket errors, and answers over the 10 s timeout. */
  non2xx: number;
  errors: number;
  timeouts: number;
}

interface WrkSummary {
  requests: number;
  durationUs: number;
  non2xx: number;
  connectErrors: number;
  readErrors: number;
  writeErrors: number;
  timeouts: number;
  meanUs: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
}

/** One `wrk -t1` run; wrk.lua sends the workload's request. */
export async function measure(baseUrl: string, workload: Workload, pets: number, seconds: number, connections: number, apiKey: string): Promise<Measurement> {
  // wrk leaves answers slower than its timeout out of the latencies: 10 s keeps a slow moment in the p99.
  const folder = workload.requests && mkdtempSync(join(tmpdir(), 'petstore-wrk-'));
  const file = folder ? join(folder, 'requests.txt') : '';
  if (workload.requests) writeFileSync(file, `${workload.requests(pets).join('\n')}\n`);
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', WRK_SCRIPT, baseUrl, '--', apiKey, workload.method, workload.path, workload.body ?? '', String(pets), file];
  const run = (wrkArgs: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile('wrk', wrkArgs, (error, out, err) => (error ? reject(new Error(`wrk ${wrkArgs.join(' ')} failed: ${error.message}\n${err}`)) : resolve(out))),
    );
  const beside = workload.beside && run(['-t1', `-c${workload.beside.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', WRK_SCRIPT, baseUrl, '--', apiKey, 'GET', workload.beside.path, '', String(pets), '']);
  const [stdout] = await Promise.all([run(args), beside]).finally(() => folder && rmSync(folder, { recursive: true, force: true }));
  const last = stdout.trimEnd().split('\n').at(-1) ?? '';
  if (!last.startsWith('{')) throw new Error(`wrk printed no summary (is wrk.lua's done() running?):\n${stdout}`);
  const s = JSON.parse(last) as WrkSummary;
  return {
    rps: s.requests / (s.durationUs / 1e6),
    p50: s.p50Us / 1000,
    p99: s.p99Us / 1000,
    mean: s.meanUs / 1000,
    max: s.maxUs / 1000,
    requests: s.requests,
    non2xx: s.non2xx,
    errors: s.connectErrors + s.readErrors + s.writeErrors,
    timeouts: s.timeouts,
  };
}

/** Throws unless Debian's `wrk` (or any wrk 4 with LuaJIT) is on the PATH. */
export async function checkWrk(): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('wrk', ['--version'], (error, out) => {
      // wrk --version prints its banner and usage, and exits 1.
      const banner = out.split('\n')[0] ?? '';
      if (banner.startsWith('wrk ')) resolve(banner.split(' Copyright')[0]);
      else reject(new Error(`wrk is not installed (${error?.message ?? banner}): apt-get install -y wrk`));
    }),
  );
}
