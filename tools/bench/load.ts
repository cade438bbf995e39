import autocannon from 'autocannon';
import { API_KEY } from './servers';

export interface Workload {
  name: string;
  /** Issue 6's floor for service/reference requests/s. */
  target?: number;
  /** The path to request, and autocannon options other than url, connections and duration. */
  options(pets: number): { path?: string } & Partial<autocannon.Options>;
}

const NEW_PET = JSON.stringify({ name: 'Bench', categoryId: 7, status: 'available' });

export const WORKLOADS: Workload[] = [
  { name: 'GET /v1/pets?limit=20', target: 0.7, options: () => ({ path: '/v1/pets?limit=20' }) },
  {
    name: 'GET /v1/pets/{id}',
    target: 0.4,
    // A random seeded id per request, so the database is not asked for one hot row.
    options: (pets) => ({
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/v1/pets/${1 + Math.floor(Math.random() * pets)}` }) }],
    }),
  },
  {
    name: 'POST /v1/pets',
    target: 0.7,
    options: () => ({ path: '/v1/pets', method: 'POST', body: NEW_PET, headers: { 'content-type': 'application/json' } }),
  },
];

export const LARGE_WORKLOADS: Workload[] = ['available', 'pending'].map((status) => ({
  name: `GET /v1/pets?limit=20&status=${status}`,
  options: () => ({ path: `/v1/pets?limit=20&status=${status}` }),
}));

export interface Measurement {
  /** Mean of autocannon's per-second request counts. */
  rps: number;
  /** Latency in ms, of 2xx responses only; the percentiles are whole milliseconds, the mean is finer. */
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** One autocannon run in this process (one worker), 50 connections by default, like `wrk -t1 -c50`. */
export async function measure(baseUrl: string, workload: Workload, pets: number, seconds: number, connections: number): Promise<Measurement> {
  const { path, headers, ...rest } = workload.options(pets);
  const result = await autocannon({
    url: `${baseUrl}${path ?? ''}`,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${API_KEY}`, ...headers },
    ...rest,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    requests: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
