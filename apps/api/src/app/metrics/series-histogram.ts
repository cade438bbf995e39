import type { Metric, Registry } from 'prom-client';

/** One labelled series: what a request adds to, without prom-client's per-call label checks and hashing. */
export class HistogramSeries {
  /** Observations per bucket (not cumulative); the last is above every boundary. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]) bucket += 1;
    this.counts[bucket] += 1;
    this.sum += value;
    this.count += 1;
  }
}

/**
 * A histogram observed on hot paths (once per request, once per lookup). prom-client's labelled `observe` validates and hashes the labels on every
 * call, a few per cent of a read by id; here each route and status keeps its own series object, and the registry
 * turns them into prom-client's form (cumulative buckets, `_sum`, `_count`) only when Prometheus scrapes.
 */
export class SeriesHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all: HistogramSeries[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** A new series; the caller keeps it (one per label set). */
  series(labels: Readonly<Record<string, string>>): HistogramSeries {
    const series = new HistogramSeries(labels, this.bounds);
    this.all.push(series);
    return series;
  }

  get() {
    const values = this.all.flatMap(({ labels, counts, sum, count }) => {
      let cumulative = 0;
      const buckets = [...this.bounds, '+Inf' as const].map((le, index) => {
        cumulative += counts[index];
        return { metricName: `${this.name}_bucket`, labels: { le, ...labels }, value: cumulative };
      });
      return [...buckets, { metricName: `${this.name}_sum`, labels, value: sum }, { metricName: `${this.name}_count`, labels, value: count }];
    });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}
