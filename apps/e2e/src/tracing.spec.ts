import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { type NodeProcess, spawnService, stopNode, waitUntilReady } from '@petstore/testing';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver';
import { TEST_KEY } from './support/test-key';

// The built service traced as an operator would configure it (docs/operations.md, "Traces"): OpenTelemetry's
// standard variables, OTLP over HTTP to a collector played by the test, and a caller that sends its own traceparent.

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? `postgres://${userInfo().username}@127.0.0.1:5432/test`;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A caller's span: what it sends as traceparent, sampled or not. */
function callerSpan(sampled = true) {
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-${sampled ? '01' : '00'}` };
}

let dir: string;
let receiver: OtlpReceiver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-tracing-'));
  receiver = await OtlpReceiver.start();
});
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Makes the service write, as it exits, which @opentelemetry modules it had loaded. */
function loadedModulesReport(name: string): { preload: string; loaded: () => string[] } {
  const report = join(dir, `${name}-modules.json`);
  const preload = join(dir, `${name}-report.js`);
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, ` +
      `JSON.stringify(Object.keys(require.cache).filter((path) => path.includes('@opentelemetry')))));\n`,
  );
  return { preload, loaded: () => JSON.parse(readFileSync(report, 'utf8')) as string[] };
}

const tracingEnv = () => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '50',
});

function send(service: NodeProcess, path: string, traceparent: string, requestId: string, body?: object) {
  return fetch(`${service.origin}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: {
      authorization: `Bearer ${TEST_KEY}`,
      traceparent,
      'x-request-id': requestId,
      ...(body && { 'content-type': 'application/json' }),
    },
    body: body && JSON.stringify(body),
  });
}

const requestSpan = (spans: ReceivedSpan[]) => spans.find((span) => span.scope === '@opentelemetry/instrumentation-http');
const statementSpans = (spans: ReceivedSpan[], parent: ReceivedSpan | undefined) =>
  spans.filter((span) => span.parentSpanId === parent?.spanId && typeof span.attributes['db.query.text'] === 'string');

describe('tracing, on SQLite', () => {
  let service: NodeProcess;
  let modules: ReturnType<typeof loadedModulesReport>;
  const log = () => join(dir, 'sqlite-service.log');

  beforeAll(async () => {
    modules = loadedModulesReport('traced');
    service = await spawnService({
      env: { ...tracingEnv(), API_KEYS: TEST_KEY, DATABASE_URL: `sqlite:${join(dir, 'petstore.sqlite')}`, NODE_OPTIONS: `--require ${modules.preload}` },
      logFile: log(),
    });
    await waitUntilReady(service);
  });
  afterAll(() => stopNode(service));

  it('continues the caller\'s trace with a span named after the operation, and a span per statement under it', async () => {
    const caller = callerSpan();
    const response = await send(service, '/v1/pets', caller.traceparent, 'trace-create', { name: 'Rex', categoryId: 1 });
    expect(response.status).toBe(201);

    const spans = await receiver.trace(caller.traceId, (received) => statementSpans(received, requestSpan(received)).length > 0);
    const request = requestSpan(spans);
    expect(request).toMatchObject({
      name: 'createPet',
      parentSpanId: caller.spanId,
      attributes: expect.objectContaining({
        'http.request.method': 'POST',
        'http.route': '/v1/pets',
        'http.response.status_code': 201,
        'url.path': '/v1/pets',
        'url.scheme': 'http',
      }),
    });
    expect(statementSpans(spans, request)).toContainEqual(
      expect.objectContaining({
        name: 'INSERT',
        attributes: expect.objectContaining({ 'db.system.name': 'sqlite', 'db.operation.name': 'INSERT' }),
      }),
    );
  });

  it('names a read by id after its operation, with the route as its template, its read on a read-only connection under it', async () => {
    const caller = callerSpan();
    const created = (await (await send(service, '/v1/pets', callerSpan(false).traceparent, 'trace-setup', { name: 'Tom', categoryId: 2 })).json()) as { id: number };
    expect((await send(service, `/v1/pets/${created.id}`, caller.traceparent, 'trace-get')).status).toBe(200);

    const spans = await receiver.trace(caller.traceId, (received) => statementSpans(received, requestSpan(received)).length > 0);
    const request = requestSpan(spans);
    expect(request).toMatchObject({
      name: 'getPet',
      parentSpanId: caller.spanId,
      attributes: expect.objectContaining({ 'http.route': '/v1/pets/{petId}', 'url.path': `/v1/pets/${created.id}`, 'http.response.status_code': 200 }),
    });
    expect(statementSpans(spans, request).map((span) => span.name)).toEqual(['SELECT']);
  });

  it('names a route without an operation `METHOD route`', async () => {
    const caller = callerSpan();
    expect((await send(service, '/health/ready', caller.traceparent, 'trace-ready')).status).toBe(200);
    const request = requestSpan(await receiver.trace(caller.traceId, (received) => requestSpan(received) !== undefined));
    expect(request).toMatchObject({ name: 'GET /health/ready', attributes: expect.objectContaining({ 'http.route': '/health/ready' }) });
  });

  it('records nothing for a caller that did not sample its trace, and puts the trace in every log line of a request', async () => {
    const unsampled = callerSpan(false);
    expect((await send(service, '/v1/pets', unsampled.traceparent, 'trace-unsampled')).status).toBe(200);
    const sampled = callerSpan();
    expect((await send(service, '/v1/pets', sampled.traceparent, 'trace-list')).status).toBe(200);
    const list = requestSpan(await receiver.trace(sampled.traceId, (received) => requestSpan(received) !== undefined));
    expect(list?.name).toBe('listPets');

    // Stopping flushes the SDK and the log lines, and writes which modules the process had loaded.
    expect(await stopNode(service)).toEqual({ code: 0, signal: null });
    expect(receiver.spans.filter((span) => span.traceId === unsampled.traceId)).toEqual([]);

    const lines = readFileSync(log(), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const linesOf = (reqId: string) => lines.filter((line) => line.reqId === reqId);
    expect(linesOf('trace-list')).toContainEqual(expect.objectContaining({ msg: 'request completed', url: '/v1/pets' }));
    for (const line of linesOf('trace-list')) expect(line).toMatchObject({ trace_id: sampled.traceId, span_id: list?.spanId });
    // The trace is not recorded here, but the caller's may be elsewhere: its id still ties the lines to it.
    for (const line of linesOf('trace-unsampled')) expect(line).toMatchObject({ trace_id: unsampled.traceId, trace_flags: '00' });
    expect(linesOf('trace-unsampled')).not.toEqual([]);

    expect(modules.loaded()).toContainEqual(expect.stringContaining('@opentelemetry/sdk-node'));
  });
});

describe('tracing, on PostgreSQL', () => {
  const name = `petstore_tracing_${hex(6)}`;
  let service: NodeProcess;

  beforeAll(async () => {
    const admin = new Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    service = await spawnService({ env: { ...tracingEnv(), API_KEYS: TEST_KEY, DATABASE_URL: url.href } });
    await waitUntilReady(service);
  });
  afterAll(async () => {
    await stopNode(service);
    const admin = new Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('puts the statements instrumentation-pg traces under the request\'s span', async () => {
    const caller = callerSpan();
    expect((await send(service, '/v1/pets', caller.traceparent, 'trace-pg-create', { name: 'Rex', categoryId: 1 })).status).toBe(201);
    const spans = await receiver.trace(caller.traceId, (received) =>
      received.some((span) => span.attributes['db.system.name'] === 'postgresql' && span.attributes['db.query.text'] !== undefined),
    );
    const request = requestSpan(spans);
    expect(request).toMatchObject({ name: 'createPet', parentSpanId: caller.spanId });
    // Every span of the trace descends from the request's.
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const descends = (span: ReceivedSpan): boolean =>
      span === request || (span.parentSpanId !== undefined && byId.has(span.parentSpanId) && descends(byId.get(span.parentSpanId) as ReceivedSpan));
    const statements = spans.filter((span) => span.attributes['db.system.name'] === 'postgresql' && span.attributes['db.query.text'] !== undefined);
    expect(statements.length).toBeGreaterThan(0);
    for (const span of statements) expect(descends(span)).toBe(true);
  });
});

describe('without OpenTelemetry\'s variables', () => {
  it('serves and loads no OpenTelemetry module at all', async () => {
    const modules = loadedModulesReport('untraced');
    const caller = callerSpan();
    const service = await spawnService({
      env: { API_KEYS: TEST_KEY, DATABASE_URL: `sqlite:${join(dir, 'untraced.sqlite')}`, NODE_OPTIONS: `--require ${modules.preload}` },
    });
    try {
      await waitUntilReady(service);
      expect((await send(service, '/v1/pets', caller.traceparent, 'untraced')).status).toBe(200);
    } finally {
      expect(await stopNode(service)).toEqual({ code: 0, signal: null });
    }
    // Only the API facade, which prom-client's process metrics require for exemplars: no-op without an SDK. No SDK,
    // exporter or instrumentation.
    expect(modules.loaded().filter((path) => !path.includes('/@opentelemetry/api/'))).toEqual([]);
    expect(service.stdout()).not.toContain('trace_id');
    expect(receiver.spans.filter((span) => span.traceId === caller.traceId)).toEqual([]);
  });
});
