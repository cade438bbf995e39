import { Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Metrics } from '../metrics/metrics';

/** Event-loop utilisation from which, with requests being served, the API is taken to need the whole loop. */
export const SATURATED_UTILIZATION = 0.8;

/**
 * Whether the API is saturating this instance's event loop: then the dispatcher's deliveries yield to it, as an
 * outgoing request costs the loop about as much as an incoming one; held back, they wait in the durable outbox. A loop
 * busy with deliveries alone is no pressure, so a backlog is worked through at full speed while the API is idle.
 */
@Injectable()
export class ApiPressure {
  private last = performance.eventLoopUtilization();

  constructor(private readonly metrics: Metrics) {}

  /** Whether the loop was saturated since the previous call, with API requests in flight now. */
  sample(): boolean {
    const now = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(now, this.last);
    this.last = now;
    return since.utilization >= SATURATED_UTILIZATION && this.requestsInFlight() > 0;
  }

  private requestsInFlight(): number {
    let active = 0;
    for (const series of this.metrics.activeRequests()) active += series.active;
    return active;
  }
}
