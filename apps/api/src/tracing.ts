import { tracingRequested } from './app/config/app-config';

/** The running SDK, as far as stopping it goes. */
interface Tracing {
  shutdown(): Promise<void>;
}

// Right after the V8 flags and before anything else: the instrumentations patch http, pg and pino as they are first
// required. Without OpenTelemetry's variables none of its code is even loaded, so tracing off costs nothing.
const tracing: Tracing | undefined = tracingRequested(process.env)
  ? // A require rather than an import, which would load the SDK whatever the variables say.
    (require('./app/observability/tracing/start-tracing') as typeof import('./app/observability/tracing/start-tracing')).startTracing()
  : undefined;

/** Exports the spans not yet sent; resolves at once when tracing is off. */
export const stopTracing = (): Promise<void> => tracing?.shutdown() ?? Promise.resolve();
