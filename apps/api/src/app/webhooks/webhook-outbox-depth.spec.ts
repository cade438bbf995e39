import type { DatabaseConnection } from '../database/database-connection';
import type { Metrics } from '../metrics/metrics';
import type { OutboxDepth, WebhookOutbox } from './outbox/webhook-outbox';
import { WebhookOutboxDepth } from './webhook-outbox-depth';

describe(WebhookOutboxDepth.name, () => {
  const now = 1_800_000_000_000;
  let depth: jest.Mock<Promise<OutboxDepth>, []>;
  let read: (name: string) => Promise<number>;

  beforeEach(() => {
    jest.useFakeTimers({ now });
    depth = jest.fn(async () => ({ pending: 3, oldestCreatedAt: now - 2_500 }));
    const gauges = new Map<string, () => Promise<number>>();
    const metrics = { gauge: (name: string, _help: string, collect: () => Promise<number>) => gauges.set(name, collect) };
    const database = { run: <T>(operation: () => Promise<T>) => operation() };
    new WebhookOutboxDepth({ depth } as unknown as WebhookOutbox, database as unknown as DatabaseConnection, metrics as unknown as Metrics).onApplicationBootstrap();
    read = (name) => (gauges.get(`petstore_webhook_outbox_${name}`) as () => Promise<number>)();
  });
  afterEach(() => jest.useRealTimers());

  it('gives the messages waiting and the age of the oldest in seconds, from one reading', async () => {
    expect(await read('messages')).toBe(3);
    expect(await read('oldest_age_seconds')).toBe(2.5);
    expect(depth).toHaveBeenCalledTimes(1);
  });

  it('reads again only once its reading is more than a second old', async () => {
    await read('messages');
    jest.setSystemTime(now + 1_000);
    await read('messages');
    expect(depth).toHaveBeenCalledTimes(1);
    jest.setSystemTime(now + 1_001);
    await read('messages');
    expect(depth).toHaveBeenCalledTimes(2);
  });

  it('gives an age of 0 with nothing waiting, and for an oldest message stamped ahead of this clock', async () => {
    depth.mockResolvedValueOnce({ pending: 0, oldestCreatedAt: null });
    expect(await read('oldest_age_seconds')).toBe(0);
    jest.setSystemTime(now + 2_000);
    depth.mockResolvedValueOnce({ pending: 1, oldestCreatedAt: now + 60_000 });
    expect(await read('oldest_age_seconds')).toBe(0);
  });

  it('gives NaN while the database cannot say, so that the scrape still answers', async () => {
    depth.mockRejectedValueOnce(new Error('database away'));
    expect(await read('messages')).toBeNaN();
    expect(await read('oldest_age_seconds')).toBeNaN();
  });
});
