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

  it('measures each sample since the previous one', () => {
    const pressure = new ApiPressure(withRequestsInFlight(1));
    const utilization = jest.spyOn(performance, 'eventLoopUtilization');
    pressure.sample();
    pressure.sample();
    const [firstNow, , secondNow] = utilization.mock.results.map(({ value }) => value);
    const [since, previous] = utilization.mock.calls[3];
    expect(since).toBe(secondNow);
    expect(previous).toBe(firstNow);
  });
});
