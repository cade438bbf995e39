/** Ends the span of one statement; an error marks it failed. */
export type EndStatementSpan = (error: Error | null) => void;

/**
 * Starts the span of one SQL statement under the active span; undefined when there is nothing to trace (no request
 * span, or one the sampler dropped).
 */
export type StartStatementSpan = (sql: string) => EndStatementSpan | undefined;

let startSpan: StartStatementSpan | undefined;

/**
 * Set by the tracing start-up (src/tracing.ts) before the database is opened. Kept apart from OpenTelemetry so that
 * the SQLite code, which has no instrumentation of its own, can ask without loading any of it.
 */
export function traceStatementsWith(start: StartStatementSpan): void {
  startSpan = start;
}

/**
 * How to start a statement's span, or undefined when tracing is off. Asked once, when a connection is opened, so that
 * with tracing off a statement runs exactly as it would without this module.
 */
export const statementSpans = (): StartStatementSpan | undefined => startSpan;

/** `running`, ending `end`'s span when it settles. */
export function spanned<T>(end: EndStatementSpan | undefined, running: Promise<T>): Promise<T> {
  if (!end) return running;
  return running.then(
    (value) => {
      end(null);
      return value;
    },
    (error: Error) => {
      end(error);
      throw error;
    },
  );
}
