import { type AddressInfo, Server } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import { API_VERSION, type Pet } from '@petstore/contract';
import { freePort } from '@petstore/testing';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';
import { rawRequest } from './support/raw-http';
import { TEST_DATABASE } from './support/test-database';

/** One sample of the Prometheus text format. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples, and each metric's `# TYPE` and `# HELP`, of a scrape. */
function parseExposition(text: string) {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const helps = new Map<string, string>();
  for (const line of text.split('\n')) {
    const comment = /^# (TYPE|HELP) (\S+) (.*)$/.exec(line);
    if (comment) (comment[1] === 'TYPE' ? types : helps).set(comment[2], comment[3]);
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) continue;
    const labels = Object.fromEntries([...(sample[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]));
    samples.push({ name: sample[1], labels, value: Number(sample[3]) });
  }
  return { samples, types, helps };
}

/** A route whose handler fails, and one that answers when the test says so: errors and in-flight requests. */
let release: () => void = () => undefined;
let entered: () => void = () => undefined;
@Controller('probes')
class ProbesController {
  @Get('broken')
  broken(): never {
    throw new Error('boom');
  }

  @Get('slow')
  async slow(): Promise<{ done: true }> {
    const answer = new Promise<void>((resolve) => (release = resolve));
    entered();
    await answer;
    return { done: true };
  }
}
@Module({ controllers: [ProbesController] })
class ProbesModule {}

describe('Prometheus metrics', () => {
  let sut: TestApp;
  let metricsUrl: string;
  const scrape = async () => {
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    return parseExposition(await response.text());
  };
  const api = (path: string, init: RequestInit = {}) => fetch(`${sut.origin}${path}`, init);
  /** The request counts of the duration histogram, keyed "METHOD route status operation". */
  const requestCounts = async () =>
    Object.fromEntries(
      (await scrape()).samples
        .filter(({ name }) => name === 'http_server_request_duration_seconds_count')
        .map(({ labels, value }) => [
          `${labels.http_request_method} ${labels.http_route} ${labels.http_response_status_code} ${labels.operation}`,
          value,
        ]),
    );
  const valueOf = async (name: string, labels: Record<string, string> = {}) =>
    (await scrape()).samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;

  beforeAll(async () => {
    const port = await freePort();
    sut = await startApp({ modules: [ProbesModule], env: { METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1', RATE_LIMIT_RPS: '1000' } });
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
  });
  afterAll(() => sut.close());

  it('serves the text format on its own listener, and nothing on the API port', async () => {
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
    // No key needed there; on the API's port the path is unknown.
    expect((await api('/metrics', { headers: AUTH })).status).toBe(404);
  });

  it('counts every answer by method, route template, status and operation, errors of every layer included', async () => {
    const before = await requestCounts();
    const created = (await (await api('/v1/pets', { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) })).json()) as Pet;
    await api(`/v1/pets/${created.id}`, { headers: AUTH });
    await api(`/v1/pets/${created.id}`, { headers: AUTH });
    await api('/v1/pets/999999999', { headers: AUTH }); // 404 from the service
    await api('/v1/pets?limit=2', { headers: AUTH });
    await api('/v1/pets?limit=0', { headers: AUTH }); // 400 from validation
    await api('/v1/pets'); // 401 from the authentication hook
    await api('/v1/pets', { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: 'x' }); // 415
    await api('/v1/pets', { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: 'x'.repeat(20_000) }) }); // 413
    await api('/v1/pets', { method: 'POST', headers: JSON_AUTH, body: '{"name":' }); // 400 malformed JSON
    await api('/v1/pets', { method: 'DELETE', headers: AUTH }); // 405 from the router
    await api('/v1/nowhere/42', { headers: AUTH }); // 404 for no route
    await api('/v1/probes/broken', { headers: AUTH }); // 500 from a handler
    expect((await rawRequest(sut.origin, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n')).status).toBe(400); // Node's parser

    const after = await requestCounts();
    const added = Object.fromEntries(Object.entries(after).map(([key, value]) => [key, value - (before[key] ?? 0)]).filter(([, value]) => value !== 0));
    expect(added).toEqual({
      'POST /v1/pets 201 createPet': 1,
      'GET /v1/pets/{petId} 200 getPet': 2,
      'GET /v1/pets/{petId} 404 getPet': 1,
      'GET /v1/pets 200 listPets': 1,
      'GET /v1/pets 400 listPets': 1,
      'GET /v1/pets 401 listPets': 1,
      'POST /v1/pets 415 createPet': 1,
      'POST /v1/pets 413 createPet': 1,
      'POST /v1/pets 400 createPet': 1,
      'DELETE  405 ': 1,
      'GET  404 ': 1,
      'GET /v1/probes/broken 500 ': 1,
      '_OTHER  400 ': 1,
    });
    const { types, helps } = await scrape();
    expect(types.get('http_server_request_duration_seconds')).toBe('histogram');
    expect(types.get('http_server_active_requests')).toBe('gauge');
    expect(helps.get('http_server_request_duration_seconds')).toBeTruthy();
  });

  it("uses OpenTelemetry's bucket boundaries, in seconds", async () => {
    const { samples } = await scrape();
    const bounds = samples
      .filter((sample) => sample.name === 'http_server_request_duration_seconds_bucket' && sample.labels.operation === 'createPet' && sample.labels.http_response_status_code === '201')
      .map((sample) => sample.labels.le);
    expect(bounds).toEqual(['0.005', '0.01', '0.025', '0.05', '0.075', '0.1', '0.25', '0.5', '0.75', '1', '2.5', '5', '7.5', '10', '+Inf']);
  });

  it('keeps label values bounded whatever the paths, methods and ids asked for', async () => {
    const junk = Array.from({ length: 60 }, (_, index) => `/v1/${Math.random().toString(36).slice(2)}/${index}?cursor=${index}`);
    await Promise.all(junk.map((path) => api(path, { headers: AUTH })));
    await Promise.all(Array.from({ length: 30 }, (_, index) => api(`/v1/pets/${1_000_000 + index}`, { headers: AUTH })));
    const { samples } = await scrape();
    const routes = new Set(samples.filter(({ name }) => name.startsWith('http_server_')).map(({ labels }) => labels.http_route));
    for (const route of routes) expect(['', '/v1/pets', '/v1/pets/{petId}', '/v1/probes/broken', '/v1/probes/slow']).toContain(route);
    const values = samples.flatMap(({ labels }) => Object.values(labels));
    expect(values.some((value) => /1000\d\d|cursor/.test(value))).toBe(false);
  });

  it('shows requests in flight, and none once they are answered', async () => {
    const active = () => valueOf('http_server_active_requests', { http_route: '/v1/probes/slow' });
    // Judged once the handler holds the request, however long the machine took to get it there.
    const reached = new Promise<void>((resolve) => (entered = resolve));
    const pending = api('/v1/probes/slow', { headers: AUTH });
    await reached;
    expect(await active()).toBe(1);
    release();
    expect((await pending).status).toBe(200);
    expect(await active()).toBe(0);
  });

  it("counts the stores' work: statements, group commits, batched lookups and idempotent replays and conflicts", async () => {
    const count = (name: string, labels: Record<string, string> = {}) => valueOf(name, labels).then((value) => value ?? 0);
    const before = {
      statements: await count('petstore_db_statement_duration_seconds_count', { store_operation: 'insert_batch' }),
      commits: await count('petstore_group_commit_batch_size_count'),
      creates: await count('petstore_group_commit_batch_size_sum'),
      lookups: await count('petstore_lookup_batch_size_sum', { lookup: 'by_id' }),
      replays: await count('petstore_idempotent_replays_total'),
      reused: await count('petstore_idempotency_conflicts_total', { reason: 'reused' }),
    };
    const key = { ...JSON_AUTH, 'idempotency-key': `metrics-${Date.now()}` };
    const created = (await (await api('/v1/pets', { method: 'POST', headers: key, body: JSON.stringify({ name: 'Ida', categoryId: 1 }) })).json()) as Pet;
    expect((await api('/v1/pets', { method: 'POST', headers: key, body: JSON.stringify({ name: 'Ida', categoryId: 1 }) })).status).toBe(201);
    expect((await api('/v1/pets', { method: 'POST', headers: key, body: JSON.stringify({ name: 'Other', categoryId: 1 }) })).status).toBe(422);
    await Promise.all(Array.from({ length: 5 }, () => api('/v1/pets', { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: 'Batch', categoryId: 1 }) })));
    await Promise.all(Array.from({ length: 5 }, () => api(`/v1/pets/${created.id}`, { headers: AUTH })));

    expect(await count('petstore_idempotent_replays_total')).toBe(before.replays + 1);
    expect(await count('petstore_idempotency_conflicts_total', { reason: 'reused' })).toBe(before.reused + 1);
    // Eight creates went through group commits (the replay and the conflict are decided inside a batch's
    // transaction), in at most eight commits, each timed.
    expect(await count('petstore_group_commit_batch_size_sum')).toBe(before.creates + 8);
    const commits = (await count('petstore_group_commit_batch_size_count')) - before.commits;
    expect(commits).toBeGreaterThanOrEqual(1);
    expect(commits).toBeLessThanOrEqual(8);
    expect(await count('petstore_db_statement_duration_seconds_count', { store_operation: 'insert_batch' })).toBe(before.statements + commits);
    // The five reads and the replay's own: six requests answered by lookups by id.
    expect(await count('petstore_lookup_batch_size_sum', { lookup: 'by_id' })).toBe(before.lookups + 6);
  });

  it('says whether the database answers and the instance is ready, what runs, and how the process is doing', async () => {
    const { samples, types, helps } = await scrape();
    const value = (name: string) => samples.find((sample) => sample.name === name)?.value;
    expect(value('petstore_database_up')).toBe(1);
    expect(value('petstore_ready')).toBe(1);
    // No REDIS_URL: limits are counted in-process, and no redis series exists for an alert to fire on.
    expect(samples.filter(({ name }) => name === 'petstore_rate_limit_store')).toEqual([{ name: 'petstore_rate_limit_store', labels: { store: 'in_process' }, value: 1 }]);
    expect(samples.find(({ name }) => name === 'petstore_build_info')).toEqual({
      name: 'petstore_build_info',
      labels: { version: API_VERSION, node_version: process.versions.node },
      value: 1,
    });
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'process_resident_memory_bytes', 'nodejs_gc_duration_seconds']) {
      expect(types.has(name)).toBe(true);
    }
    for (const [name] of types) if (name.startsWith('petstore_')) expect(helps.get(name)).toMatch(/\w/);
    if (TEST_DATABASE === 'postgres') {
      expect(value('petstore_db_pool_size')).toBe(10);
      const states = samples.filter(({ name }) => name === 'petstore_db_pool_connections').map(({ labels }) => labels.state);
      expect(states.sort()).toEqual(['idle', 'in_use', 'waiting']);
    } else {
      expect(types.has('petstore_db_pool_connections')).toBe(false);
    }
  });
});

describe('Prometheus metrics, per-key limits and refusals', () => {
  it('counts 429s by the limit hit, and 401s by reason', async () => {
    const port = await freePort();
    const sut = await startApp({ env: { METRICS_PORT: String(port), RATE_LIMIT_RPS: '1' } });
    try {
      // Until one is refused, however slowly a busy machine sends them; the counter must say exactly how many were.
      let refused = 0;
      for (let sent = 0; refused === 0; sent += 1) {
        if (sent === 50) throw new Error('50 requests in a row at RATE_LIMIT_RPS=1 and none refused');
        const response = await fetch(`${sut.origin}/v1/pets`, { headers: AUTH });
        await response.arrayBuffer();
        if (response.status === 429) refused += 1;
      }
      await fetch(`${sut.origin}/v1/pets`);
      await fetch(`${sut.origin}/v1/pets`, { headers: { authorization: 'Bearer pk_not_a_known_key_000000' } });
      const { samples } = parseExposition(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
      const count = (name: string, reason: string) => samples.find((sample) => sample.name === name && sample.labels.reason === reason)?.value;
      expect(count('petstore_rate_limit_refusals_total', 'key_rate')).toBe(refused);
      expect(count('petstore_auth_failures_total', 'missing')).toBe(1);
      expect(count('petstore_auth_failures_total', 'unknown')).toBe(1);
      const limited = samples.find(
        (sample) => sample.name === 'http_server_request_duration_seconds_count' && sample.labels.http_response_status_code === '429',
      );
      expect(limited?.labels).toMatchObject({ http_route: '/v1/pets', operation: 'listPets' });
    } finally {
      await sut.close();
    }
  });
});

describe('Prometheus metrics off', () => {
  it('opens no listener with METRICS_PORT=0', async () => {
    const listeningPorts = () =>
      (process as unknown as { _getActiveHandles(): unknown[] })
        ._getActiveHandles()
        .filter((handle): handle is Server => handle instanceof Server && handle.listening)
        .map((server) => (server.address() as AddressInfo).port);
    const before = new Set(listeningPorts());
    const sut = await startApp({ env: { METRICS_PORT: '0' } });
    try {
      // The API's own listener, and no other.
      expect(listeningPorts().filter((port) => !before.has(port))).toEqual([Number(new URL(sut.origin).port)]);
    } finally {
      await sut.close();
    }
  });
});
