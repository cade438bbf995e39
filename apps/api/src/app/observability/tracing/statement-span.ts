import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR_DB_OPERATION_NAME, ATTR_DB_QUERY_TEXT, ATTR_DB_SYSTEM_NAME } from '@opentelemetry/semantic-conventions';
import type { EndStatementSpan } from '../statement-spans';

const tracer = trace.getTracer('petstore-sqlite');

/**
 * A CLIENT span for one SQLite statement, named after its operation (SELECT, INSERT, BEGIN…), as instrumentation-pg
 * does for PostgreSQL. Only inside a recorded span: a statement of start-up or background work would otherwise be a
 * trace of its own, and one of a request the sampler dropped would cost attributes nobody reads.
 */
export function startStatementSpan(sql: string): EndStatementSpan | undefined {
  if (!trace.getActiveSpan()?.isRecording()) return undefined;
  const operation = operationName(sql);
  const span = tracer.startSpan(operation, {
    kind: SpanKind.CLIENT,
    attributes: { [ATTR_DB_SYSTEM_NAME]: 'sqlite', [ATTR_DB_OPERATION_NAME]: operation, [ATTR_DB_QUERY_TEXT]: sql },
  });
  return (error) => {
    if (error) {
      span.recordException(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    span.end();
  };
}

/** The statement's first keyword; the SQL here is ours, never a user's, so its text is safe to record. */
export function operationName(sql: string): string {
  const start = sql.search(/\S/);
  const end = sql.slice(start).search(/\s/);
  return (end === -1 ? sql.slice(start) : sql.slice(start, start + end)).toUpperCase();
}
