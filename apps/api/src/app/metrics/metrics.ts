import { API_VERSION } from '@petstore/contract';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type HistogramSeries, SeriesHistogram } from './series-histogram';

/** OpenTelemetry's advised boundaries for `http.server.request.duration`, in seconds. */
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const STATEMENT_DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const BATCH_SIZE_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

const STORE_OPERATIONS = ['find_by_ids', 'find_page', 'insert_batch', 'purge_idempotency_keys', 'fill_name_keys'] as const;
export type StoreOperation = (typeof STORE_OPERATIONS)[number];
export type AuthFailureReason = 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired' | 'insufficient_scope';
export type RateLimitReason = 'key_rate' | 'auth_failures';

/**
 * Every metric of one service instance, on a registry of its own so that apps in one process never share counts.
 * Label values come from closed sets: routes are templates, never paths or ids.
 */
export class Metrics {
  readonly registry = new Registry();

  /** Labelled in http-metrics.ts by method, route, status code and operation. */
  readonly httpDuration = new SeriesHistogram(
    'http_server_request_duration_seconds',
    'Duration of HTTP requests, from their first byte to their last answered byte, by route template and status.',
    HTTP_DURATION_BUCKETS,
    this.registry,
  );

  /** Requests in flight by series, read when Prometheus scrapes; http-metrics.ts keeps the counts. */
  activeRequests: () => Iterable<{ labels: Record<'http_request_method' | 'http_route' | 'operation', string>; active: number }> = () => [];

  private readonly statementDurations = new SeriesHistogram(
    'petstore_db_statement_duration_seconds',
    "Duration of the stores' database work, by store operation (one batch of reads or creates is one).",
    STATEMENT_DURATION_BUCKETS,
    this.registry,
  );

  private readonly statementDuration = Object.fromEntries(
    STORE_OPERATIONS.map((operation) => [operation, this.statementDurations.series({ store_operation: operation })]),
  ) as Record<StoreOperation, HistogramSeries>;

  readonly groupCommitBatchSize = new Histogram({
    name: 'petstore_group_commit_batch_size',
    help: 'Creates committed together in one transaction.',
    buckets: BATCH_SIZE_BUCKETS,
    registers: [this.registry],
  });

  private readonly lookupBatchSizes = new SeriesHistogram(
    'petstore_lookup_batch_size',
    'Requests answered by one batched lookup, by kind of lookup.',
    BATCH_SIZE_BUCKETS,
    this.registry,
  );

  /** One series per kind of lookup, observed once per lookup. */
  readonly lookupBatchSize = { by_id: this.lookupBatchSizes.series({ lookup: 'by_id' }), page: this.lookupBatchSizes.series({ lookup: 'page' }) };

  readonly rateLimitRefusals = new Counter({
    name: 'petstore_rate_limit_refusals_total',
    help: 'Requests refused with 429, by the limit they hit.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly authFailures = new Counter({
    name: 'petstore_auth_failures_total',
    help: 'Requests refused for their key: 401 by why it was not accepted, 403 (insufficient_scope) when it may not do the operation.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly idempotentReplays = new Counter({
    name: 'petstore_idempotent_replays_total',
    help: 'Creates answered with an earlier create of the same Idempotency-Key.',
    registers: [this.registry],
  });

  readonly idempotencyConflicts = new Counter({
    name: 'petstore_idempotency_conflicts_total',
    help: 'Creates refused for their Idempotency-Key: in_use (409) or reused with another body (422).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'petstore_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome: delivered (a 2xx), retrying (failed; another is scheduled) or failed (the last).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'petstore_webhook_deliveries_total',
    help: 'Webhook messages finished, by outcome: delivered, or failed once every scheduled attempt had failed.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookAttemptDuration = new Histogram({
    name: 'petstore_webhook_attempt_duration_seconds',
    help: 'Duration of webhook delivery attempts, from resolving the host to the answer or the failure.',
    buckets: HTTP_DURATION_BUCKETS,
    registers: [this.registry],
  });

  /** @param process also Node's process metrics, as the service exports them. */
  constructor({ process = false }: { process?: boolean } = {}) {
    if (process) collectDefaultMetrics({ register: this.registry });
    const activeRequests = () => this.activeRequests();
    new Gauge({
      name: 'http_server_active_requests',
      help: 'HTTP requests being served now.',
      labelNames: ['http_request_method', 'http_route', 'operation'],
      registers: [this.registry],
      collect() {
        for (const { labels, active } of activeRequests()) this.set(labels, active);
      },
    });
    new Gauge({
      name: 'petstore_build_info',
      help: 'What runs: the API version and the Node.js version (always 1).',
      labelNames: ['version', 'node_version'],
      registers: [this.registry],
    }).set({ version: API_VERSION, node_version: globalThis.process.versions.node }, 1);
    for (const reason of ['missing', 'malformed', 'unknown', 'revoked', 'expired', 'insufficient_scope'] satisfies AuthFailureReason[]) this.authFailures.inc({ reason }, 0);
    for (const reason of ['key_rate', 'auth_failures'] satisfies RateLimitReason[]) this.rateLimitRefusals.inc({ reason }, 0);
    for (const reason of ['in_use', 'reused']) this.idempotencyConflicts.inc({ reason }, 0);
    for (const outcome of ['delivered', 'retrying', 'failed']) this.webhookAttempts.inc({ outcome }, 0);
    for (const outcome of ['delivered', 'failed']) this.webhookDeliveries.inc({ outcome }, 0);
  }

  /** Times one piece of the stores' database work. */
  async timeStatement<T>(operation: StoreOperation, work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.statementDuration[operation].observe((performance.now() - start) / 1000);
    }
  }

  /** A gauge whose value is read when Prometheus scrapes, e.g. from the connection pool. */
  gauge(name: string, help: string, read: () => number | Promise<number>): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.set(await read());
      },
    });
  }

  /** Gauges labelled by one label, read together when Prometheus scrapes. */
  gauges<L extends string>(name: string, help: string, label: string, read: () => Record<L, number>): void {
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [this.registry],
      collect() {
        for (const [value, count] of Object.entries(read())) this.set({ [label]: value }, count as number);
      },
    });
  }
}
