import pino, { type DestinationStream } from 'pino';

type SonicBoom = ReturnType<typeof pino.destination>;

/** About what one write(2) takes; lines are a few hundred bytes. */
const BATCH_BYTES = 4096;
/** No line waits longer than this for a quiet moment to be written. */
const MAX_WAIT_MS = 1_000;

/**
 * Hands log lines to sonic-boom in batches: its own batching (minLength) measures the whole pending string per line,
 * which under load cost more than building the line (docs/performance.md, "Where the time of a read by id goes").
 */
export class LineBatches implements DestinationStream {
  private lines: string[] = [];
  private length = 0;

  constructor(private readonly destination: SonicBoom) {
    setInterval(() => this.flush(), MAX_WAIT_MS).unref();
    // pino flushes sonic-boom synchronously at exit; what is still gathered here must reach it first.
    process.once('exit', () => this.flushSync());
  }

  write(line: string): void {
    this.lines.push(line);
    this.length += line.length;
    if (this.length >= BATCH_BYTES) this.flush();
  }

  /** Hands the gathered lines to sonic-boom, which writes them as soon as its previous write is done. */
  flush(): void {
    if (this.lines.length === 0) return;
    this.destination.write(this.lines.join(''));
    this.lines = [];
    this.length = 0;
  }

  flushSync(): void {
    this.flush();
    this.destination.flushSync();
  }
}
