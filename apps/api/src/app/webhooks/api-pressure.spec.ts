import { performance } from 'node:perf_hooks';
import type { Metrics } from '../metrics/metrics';
import { ApiPressure, SATURATED_UTILIZATION } from './api-pressure';

describe(ApiPressure.name, () => {
  const withRequestsInFlight = (...active: number[]) =>
    ({ activeRequests: () => active.map((count) => ({ labels: {}, active: count })) }) as unknown as Metrics;

  /** The event loop's utilisation since the previous sample, as perf_hooks would report it. */
  const loopWas = (utilization: number) => {
    const sample = { idle: 0, active: 0, utilization: 0 };
    jest.spyOn(performance, 'eventLoopUtilization').mockImplementation((current?: unknown) => (current ? { ...sample, utilization } : sample));
  };

  it.each([
    [SATURATED_UTILIZATION, [3], true],
    [0.99, [0, 1], true],
    [SATURATED_UTILIZATION - 0.01, [50], false],
    [1, [0, 0], false],
    [1, [], false],
  ])('with the loop %p busy and requests in flight %p, says %p', (utilization, active, saturated) => {
    const pressure = new ApiPressure(withRequestsInFlight(...active));
    loopWas(utilization);
    expect(pressure.sample()).toBe(saturated);
  });

  it('judges each sample by the loop since the previous one, not since the start', () => {
    // perf_hooks' semantics: cumulative idle and active time, and the utilisation of the difference of two readings.
    const clock = { idle: 0, active: 0 };
    jest.spyOn(performance, 'eventLoopUtilization').mockImplementation(((current?: typeof clock, previous?: typeof clock) => {
      if (!current) return { ...clock, utilization: 0 };
      const active = current.active - (previous?.active ?? 0);
      const idle = current.idle - (previous?.idle ?? 0);
      return { idle, active, utilization: active / (active + idle) };
    }) as typeof performance.eventLoopUtilization);
    const pressure = new ApiPressure(withRequestsInFlight(1));
    const spend = (active: number, idle: number) => Object.assign(clock, { active: clock.active + active, idle: clock.idle + idle });

    spend(0, 100);
    expect(pressure.sample()).toBe(false);
    // Busy throughout this interval: saturated, although the loop was busy only half the time since the start.
    spend(100, 0);
    expect(pressure.sample()).toBe(true);
    spend(0, 100);
    expect(pressure.sample()).toBe(false);
  });
});
