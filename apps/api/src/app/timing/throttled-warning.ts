/**
 * A warning logged at most once per `everyMs`: a periodic task that keeps failing (the database away, say) is
 * reported, not repeated on every run.
 */
export class ThrottledWarning {
  private warnedAt = -Infinity;

  constructor(
    private readonly logger: { warn(message: string): void },
    private readonly everyMs: number,
  ) {}

  warn(message: string): void {
    if (Date.now() - this.warnedAt < this.everyMs) return;
    this.warnedAt = Date.now();
    this.logger.warn(message);
  }
}
