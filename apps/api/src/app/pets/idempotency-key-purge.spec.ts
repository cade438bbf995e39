import { Logger } from '@nestjs/common';
import { expectPurgedHourly } from '../../../test/support/hourly-purge';
import { IdempotencyKeyPurge } from './idempotency-key-purge';
import type { PetStore } from './pet.store';

describe(IdempotencyKeyPurge.name, () => {
  const started = 1_800_000_000_000;
  beforeEach(() => jest.useFakeTimers({ now: started }));
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('purges keys 24 hours old a minute after the start, then hourly, and says so when it cannot', async () => {
    const store = { purgeIdempotencyKeys: jest.fn(async () => undefined) };
    const warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const sut = new IdempotencyKeyPurge(store as unknown as PetStore);
    sut.onApplicationBootstrap();
    await expectPurgedHourly(store.purgeIdempotencyKeys, warnings, 'Could not purge expired idempotency keys');
    expect(store.purgeIdempotencyKeys.mock.calls[0]).toEqual([started + 60_000 - 86_400_000]);
    sut.onApplicationShutdown();
  });
});
