import { execFile } from 'node:child_process';
import { join } from 'node:path';

const WRK_SCRIPT = join(__dirname, 'wrk.lua');

export interface Workload {
  name: string;
  /** What `--workloads` calls it. */
  key?: 'list' | 'read' | 'create';
  /** The floors for requests/s (issue 45): service/reference on SQLite, and the service on PostgreSQL over SQLite. */
  target?: { overReference: number; postgresOverSqlite: number };
  method: 'GET' | 'POST';
  /** `{id}` stands for a seeded id drawn anew for each request. */
  path: string;
  body?: string;
}

const NEW_PET = JSON.stringify({ name: 'Bench', categoryId: 7, status: 'available' });

export const WORKLOADS: Workload[] = [
  { name: 'GET /v1/pets?limit=20', key: 'list', target: { overReference: 1.2, postgresOverSqlite: 0.9 }, method: 'GET', path: '/v1/pets?limit=20' },
  // A random seeded id per request, so that the database is not asked for one hot row.
  { name: 'GET /v1/pets/{id}', key: 'read', target: { overReference: 0.8, postgresOverSqlite: 0.9 }, method: 'GET', path: '/v1/pets/{id}' },
  { name: 'POST /v1/pets', key: 'create', target: { overReference: 2.0, postgresOverSqlite: 0.9 }, method: 'POST', path: '/v1/pets', body: NEW_PET },
];

const listOf = (query: string): Workload => ({ name: `GET /v1/pets?limit=20&${query}`, method: 'GET', path: `/v1/pets?limit=20&${query}` });

/**
 * The large benchmark's lists: by status (most pets available, 0.1% pending), and the 1.1.0 filters on the seeded
 * names "Pet 1" … "Pet 1000000" and categories 1 to 50. "pet 1" matches many names (a ninth of them), "pet 99999" a few
 * (11, at the highest ids: the worst place for a walk in id order); "99" and "é" are shorter than the trigram index
 * serves, the first matching often, the second never (a pass over every name).
 */
export const LARGE_WORKLOADS = {
  statusMany: listOf('status=available'),
  statusFew: listOf('status=pending'),
  nameMany: listOf('name=pet%201'),
  nameFew: listOf('name=pet%2099999'),
  shortMany: listOf('name=99'),
  shortNone: listOf('name=%C3%A9'),
  category: listOf('categoryId=7'),
} satisfies Record<string, Workload>;

export interface Measurement {
  /** Completed requests over wrk's measured duration. */
  rps: number;
  /** Latency in ms, of every answer (wrk does not tell 2xx apart), to the microsecond. */
  p50: number;
  p99: number;
  mean: number;
  max: number;
  requests: number;
  /** Answers that were not 2xx (counted by wrk.lua's response()), socket errors, and answers over 10 s (wrk's own). */
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

/** One `wrk -t1` run (one thread, `connections` connections) with the API key; wrk.lua sends the workload's request. */
export async function measure(baseUrl: string, workload: Workload, pets: number, seconds: number, connections: number, apiKey: string): Promise<Measurement> {
  // wrk leaves answers slower than its timeout out of the latencies (counted as timeouts): 10 s keeps a slow moment
  // in the p99 rather than hiding it.
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', WRK_SCRIPT, baseUrl, '--', apiKey, workload.method, workload.path, workload.body ?? '', String(pets)];
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile('wrk', args, (error, out, err) => (error ? reject(new Error(`wrk ${args.join(' ')} failed: ${error.message}\n${err}`)) : resolve(out))),
  );
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
