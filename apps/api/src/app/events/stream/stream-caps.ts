import { ApiException } from '../../errors/api-exception';

/** How long a client refused for a cap waits: streams end when their clients leave, which no count foretells. */
const RETRY_AFTER_SECONDS = 5;

export const tooManyStreams = (which: 'key' | 'instance', most: number) =>
  new ApiException(
    'rate_limited',
    which === 'key'
      ? `Too many event streams open for this API key: at most ${most} at once. Close one, or retry in ${RETRY_AFTER_SECONDS} s.`
      : `This instance has as many event streams open as it takes (${most}); retry in ${RETRY_AFTER_SECONDS} s, perhaps on another instance.`,
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );

/** The streams open on this instance, per API key and in all, each within its cap (EVENT_STREAMS_PER_KEY, EVENT_STREAMS_MAX). */
export class StreamCaps {
  private readonly byHolder = new Map<string, number>();
  private open = 0;

  constructor(private readonly caps: { perKey: number; perInstance: number }) {}

  /** Counts one more stream of `holder`, or throws the 429 that refuses it; the answer lets it go, once. */
  admit(holder: string): () => void {
    if (this.open >= this.caps.perInstance) throw tooManyStreams('instance', this.caps.perInstance);
    const held = this.byHolder.get(holder) ?? 0;
    if (held >= this.caps.perKey) throw tooManyStreams('key', this.caps.perKey);
    this.byHolder.set(holder, held + 1);
    this.open += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open -= 1;
      const left = (this.byHolder.get(holder) as number) - 1;
      // Stryker disable next-line ConditionalExpression: a key with none open left at zero costs memory only
      if (left === 0) this.byHolder.delete(holder);
      else this.byHolder.set(holder, left);
    };
  }

  /** Streams open now. */
  get size(): number {
    return this.open;
  }
}
