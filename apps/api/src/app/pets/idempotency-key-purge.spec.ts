import { Logger } from '@nestjs/common';
import { IdempotencyKeyPurge } from './idempotency-key-purge';
import type { PetStore } from './pet.store';

describe(IdempotencyKeyPurge.name, () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_800_000_000_000 }));
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('purges keys 24 hours old a minute after the start, then hourly, and says so when it cannot', async () => {
    const purged: number[] = [];
    const store = { purgeIdempotencyKeys: jest.fn(async (before: number) => void purged.push(before)) };
    const warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const sut = new IdempotencyKeyPurge(store as unknown as PetStore);
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(59_999);
    expect(purged).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(purged).toEqual([1_800_000_060_000 - 86_400_000]);
    store.purgeIdempotencyKeys.mockRejectedValueOnce(new Error('database away'));
    await jest.advanceTimersByTimeAsync(3_599_999);
    expect(store.purgeIdempotencyKeys).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(store.purgeIdempotencyKeys).toHaveBeenCalledTimes(2);
    expect(warnings.mock.calls).toEqual([['Could not purge expired idempotency keys: database away']]);
    sut.onApplicationShutdown();
  });
});
