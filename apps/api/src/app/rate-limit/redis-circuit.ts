import { Repeating } from '../timing/repeating';

/** When the circuit opens and closes, and what a probe does in between. */
export interface RedisCircuitOptions {
  /** Misses in a row (a command past its budget, or refused) that open the circuit. */
  missesToOpen: number;
  /** Pause between probes while open; one probe at a time. */
  probeEveryMs: number;
  /** Asks Redis whether it answers again (a PING within the command budget); rejects if not. */
  probe: () => Promise<unknown>;
  /** Called once per change, never per call: the place to log and to drop a connection that went silent. */
  onChange: (shared: boolean, reason: string) => void;
}

/**
 * Whether the rate limits may ask Redis now. A silent Redis costs each call at most its budget
 * (RATE_LIMIT_REDIS_TIMEOUT_MS); after a few misses in a row the circuit opens and calls stop asking Redis at all (limits are counted
 * in-process), while one probe at a time checks whether it answers again. The first probe that answers closes it.
 */
export class RedisCircuit {
  private misses = 0;
  private open = false;
  private stopped = false;
  private readonly probes: Repeating;

  constructor(private readonly options: RedisCircuitOptions) {
    this.probes = new Repeating(options.probeEveryMs, () => this.probe());
  }

  /** True while limits are counted in Redis (shared by every instance). */
  get shared(): boolean {
    return !this.open;
  }

  /** Redis answered a call (a 429 is an answer too). */
  answered(): void {
    this.misses = 0;
  }

  /** Redis did not answer a call within its budget, or refused it. */
  missed(error: Error): void {
    if (this.open) return;
    this.misses += 1;
    if (this.misses < this.options.missesToOpen) return;
    this.open = true;
    this.options.onChange(false, `${this.misses} calls in a row failed, the last: ${error.message}`);
    if (!this.stopped) this.probes.start();
  }

  stop(): void {
    this.stopped = true;
    this.probes.stop();
  }

  private async probe(): Promise<void> {
    try {
      await this.options.probe();
    } catch {
      return;
    }
    this.probes.stop();
    if (this.stopped) return;
    this.open = false;
    this.misses = 0;
    this.options.onChange(true, 'a probe answered');
  }
}
