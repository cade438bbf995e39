import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AlwaysOffSampler, InMemorySpanExporter, ParentBasedSampler, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { operationName, startStatementSpan } from './statement-span';

describe(startStatementSpan.name, () => {
  const exporter = new InMemorySpanExporter();
  const contextManager = new AsyncLocalStorageContextManager();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('test');

  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
    trace.setGlobalTracerProvider(provider);
  });
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  });
  beforeEach(() => exporter.reset());

  const inRequest = <T>(work: () => T, name = 'getPet'): T => tracer.startActiveSpan(name, (span) => {
    try {
      return work();
    } finally {
      span.end();
    }
  });

  it('records a statement as a child of the request\'s span, named after its operation', () => {
    inRequest(() => startStatementSpan('  select * from pets where id = ?')?.(null));
    const [statement, request] = exporter.getFinishedSpans();
    expect(statement.name).toBe('SELECT');
    expect(statement.kind).toBe(SpanKind.CLIENT);
    expect(statement.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(statement.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(statement.attributes).toEqual({
      'db.system.name': 'sqlite',
      'db.operation.name': 'SELECT',
      'db.query.text': '  select * from pets where id = ?',
    });
    expect(statement.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks the span of a failed statement as an error', () => {
    inRequest(() => startStatementSpan('COMMIT')?.(new Error('SQLITE_BUSY: database is locked')));
    const [statement] = exporter.getFinishedSpans();
    expect(statement.status).toEqual({ code: SpanStatusCode.ERROR, message: 'SQLITE_BUSY: database is locked' });
    expect(statement.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('starts nothing outside a request (start-up, background work)', () => {
    expect(startStatementSpan('PRAGMA journal_mode')).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('starts nothing under a request the sampler dropped', async () => {
    const unsampled = new TracerProvider({ sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }), spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    unsampled.getTracer('test').startActiveSpan('listPets', (span) => {
      expect(startStatementSpan('SELECT 1')).toBeUndefined();
      span.end();
    });
    expect(exporter.getFinishedSpans()).toEqual([]);
    await unsampled.shutdown();
  });
});

describe(operationName.name, () => {
  it.each([
    ['SELECT 1', 'SELECT'],
    ['\n  insert into pets (name) values (?)', 'INSERT'],
    ['BEGIN IMMEDIATE', 'BEGIN'],
    ['COMMIT', 'COMMIT'],
  ])('%j is %s', (sql, operation) => {
    expect(operationName(sql)).toBe(operation);
  });
});
