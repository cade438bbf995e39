import { Logger } from '@nestjs/common';
import { expectPurgedHourly } from '../../../test/support/hourly-purge';
import type { DatabaseConnection } from '../database/database-connection';
import type { WebhookOutbox } from './outbox/webhook-outbox';
import { WebhookOutboxPurge } from './webhook-outbox-purge';

describe(WebhookOutboxPurge.name, () => {
  const started = 1_800_000_000_000;
  beforeEach(() => jest.useFakeTimers({ now: started }));
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('purges what finished 7 days before, a minute after the start and then hourly, through the connection', async () => {
    const outbox = { purge: jest.fn(async () => undefined) };
    const through: string[] = [];
    const database = { run: (operation: () => Promise<unknown>) => (through.push('run'), operation()) };
    const warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const sut = new WebhookOutboxPurge(outbox as unknown as WebhookOutbox, database as unknown as DatabaseConnection);
    sut.onApplicationBootstrap();
    await expectPurgedHourly(outbox.purge, warnings, 'Finished webhook messages not purged');
    expect(outbox.purge.mock.calls[0]).toEqual([started + 60_000 - 604_800_000]);
    expect(through).toEqual(['run', 'run']);
    sut.onApplicationShutdown();
  });
});
