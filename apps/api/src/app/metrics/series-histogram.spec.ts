import { Histogram, Registry } from 'prom-client';
import { SeriesHistogram } from './series-histogram';

describe(SeriesHistogram.name, () => {
  it("exposes exactly what prom-client's own histogram exposes for the same observations", async () => {
    const bounds = [0.005, 0.01, 0.1, 1];
    const ours = new Registry();
    const theirs = new Registry();
    const fast = new SeriesHistogram('request_seconds', 'How long requests took.', bounds, ours);
    const reference = new Histogram({ name: 'request_seconds', help: 'How long requests took.', labelNames: ['route', 'status'], buckets: bounds, registers: [theirs] });
    const observations: Array<[Record<string, string>, number]> = [
      [{ route: '/a', status: '200' }, 0.004],
      [{ route: '/a', status: '200' }, 0.005], // on a boundary: counted in that bucket (le)
      [{ route: '/a', status: '200' }, 0.05],
      [{ route: '/a', status: '500' }, 3], // above every boundary: only +Inf
      [{ route: '/b', status: '200' }, 0],
    ];
    const series = new Map<string, ReturnType<SeriesHistogram['series']>>();
    for (const [labels, value] of observations) {
      const key = JSON.stringify(labels);
      if (!series.has(key)) series.set(key, fast.series(labels));
      series.get(key)?.observe(value);
      reference.observe(labels, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
