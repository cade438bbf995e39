import { Logger } from '@nestjs/common';
import { PeriodicTask } from './periodic-task';

class Failing extends PeriodicTask {
  calls: number[] = [];

  constructor() {
    super('Failing', { everyMs: 1_000, firstAfterMs: 100 }, 'Nothing done');
  }

  protected async run(now: number): Promise<void> {
    this.calls.push(now);
    throw new Error('the database is away');
  }
}

describe(PeriodicTask.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs from bootstrap to shutdown, first after its own delay, and logs a failing run once a period, never throwing', async () => {
    const warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const sut = new Failing();
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(99);
    expect(sut.calls).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(sut.calls).toHaveLength(1);
    expect(warnings.mock.calls).toEqual([['Nothing done: the database is away']]);
    // A run asked for within the period (a test's, an operator's) fails alike, and is not logged again.
    await expect(sut.runOnce()).resolves.toBeUndefined();
    expect(warnings).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(sut.calls).toHaveLength(3);
    expect(warnings).toHaveBeenCalledTimes(2);
    sut.onApplicationShutdown();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(sut.calls).toHaveLength(3);
    warnings.mockRestore();
  });
});
