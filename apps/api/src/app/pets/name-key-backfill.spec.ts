import { Logger } from '@nestjs/common';
import { NameKeyBackfill } from './name-key-backfill';
import type { PetStore } from './pet.store';

describe(NameKeyBackfill.name, () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  const logs = () => ({
    log: jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined),
    warn: jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined),
  });

  it('keys the pets an older version stored every 5 s, and says how many only when there were some', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    const keyed = [0, 3];
    const store = { completeNameKeys: jest.fn(async () => keyed.shift() ?? 0) };
    const { log } = logs();
    const sut = new NameKeyBackfill(store as unknown as PetStore);
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(4_999);
    expect(store.completeNameKeys).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(log).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(store.completeNameKeys).toHaveBeenCalledTimes(2);
    expect(log.mock.calls).toEqual([['Wrote the search key of 3 pet(s) stored by an instance of an older version']]);
    expect(log.mock.contexts).toEqual([expect.objectContaining({ context: 'NameKeyBackfill' })]);
    sut.onApplicationShutdown();
  });

  it('says so when it could not', async () => {
    const { warn } = logs();
    const sut = new NameKeyBackfill({ completeNameKeys: async () => Promise.reject(new Error('SQLITE_BUSY')) } as unknown as PetStore);
    await sut.runOnce();
    expect(warn).toHaveBeenCalledWith('Could not key the pets stored without a search key: SQLITE_BUSY');
  });
});
