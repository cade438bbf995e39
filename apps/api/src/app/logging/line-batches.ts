import pino, { type DestinationStream } from 'pino';

type SonicBoom = ReturnType<typeof pino.destination>;

/** About what one write(2) takes; lines are a few hundred bytes. */
const BATCH_BYTES = 4096;
/** No line waits longer than this for a quiet moment to be written. */
const MAX_WAIT_MS = 1_000;

/**
 * Gathers log lines and hands them to sonic-boom about 4 KiB at a time. sonic-boom can batch on its own (minLength),
 * but then measures its whole pending string on every line (Buffer.byteLength, which flattens it): under load, with
 * a write in flight, that cost more than building the line (measured: see docs/performance.md).
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
