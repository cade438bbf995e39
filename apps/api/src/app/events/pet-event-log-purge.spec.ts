import { Logger } from '@nestjs/common';
import { expectPurgedHourly } from '../../../test/support/hourly-purge';
import type { DatabaseConnection } from '../database/database-connection';
import type { PetEventLog } from './log/pet-event-log';
import { PetEventLogPurge } from './pet-event-log-purge';

describe(PetEventLogPurge.name, () => {
  const started = 1_800_000_000_000;
  beforeEach(() => jest.useFakeTimers({ now: started }));
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('purges events 7 days old, a minute after the start and then hourly, through the connection', async () => {
    const log = { purge: jest.fn(async () => undefined) };
    const through: string[] = [];
    const database = { run: (operation: () => Promise<unknown>) => (through.push('run'), operation()) };
    const warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const sut = new PetEventLogPurge(log as unknown as PetEventLog, database as unknown as DatabaseConnection);
    sut.onApplicationBootstrap();
    await expectPurgedHourly(log.purge, warnings, 'Old events not purged');
    expect(log.purge.mock.calls[0]).toEqual([started + 60_000 - 604_800_000]);
    expect(through).toEqual(['run', 'run']);
    sut.onApplicationShutdown();
  });
});
