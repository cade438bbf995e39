/**
 * Runs `task` every `everyMs` after its previous run has ended, so that two runs never overlap however long one takes
 * (a check of a dependency that may hang until its deadline); until stopped. The first run comes `firstAfterMs` after
 * the start (by default `everyMs`). The timer never keeps the process alive.
 */
export class Repeating {
  private timer?: NodeJS.Timeout;
  private running = false;
  /** A run under way: its end schedules the next, so a stop and start meanwhile make no second chain of runs. */
  private inFlight = false;
  /** Asked for soon() during a run: the next run follows it at once. */
  private again = false;

  constructor(
    private readonly everyMs: number,
    private readonly task: () => Promise<void>,
    private readonly firstAfterMs = everyMs,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    if (!this.inFlight) this.schedule(this.firstAfterMs);
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  /** The next run now, or right after the one under way, rather than at its time; only while started. */
  soon(): void {
    if (!this.running) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.schedule(0);
  }

  private schedule(afterMs: number): void {
    this.timer = setTimeout(() => {
      this.inFlight = true;
      this.again = false;
      void this.task().finally(() => {
        this.inFlight = false;
        if (this.running) this.schedule(this.again ? 0 : this.everyMs);
      });
    }, afterMs);
    this.timer.unref();
  }
}
