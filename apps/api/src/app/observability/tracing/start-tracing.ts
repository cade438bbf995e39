import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { traceStatementsWith } from '../statement-spans';
import { startStatementSpan } from './statement-span';

/**
 * Starts OpenTelemetry's SDK as its standard variables configure it (exporter, endpoint, protocol, sampler,
 * propagators, resource), for traces only: metrics have their Prometheus listener and logs go to stdout. Must run
 * before http, pg and pino are first required, which the instrumentations patch as they load.
 */
export function startTracing(): NodeSDK {
  const sdk = new NodeSDK({
    // A default that OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override (the detected resource is merged over it).
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'petstore' })),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation(),
      // Only statements of a request: start-up and background work would each be a trace of their own.
      new PgInstrumentation({ requireParentSpan: true }),
      // trace_id and span_id in each line; the lines themselves stay on stdout rather than going through the SDK too.
      new PinoInstrumentation({ disableLogSending: true }),
    ],
  });
  sdk.start();
  traceStatementsWith(startStatementSpan);
  return sdk;
}
