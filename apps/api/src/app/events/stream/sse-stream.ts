import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { eventBody } from '../../webhooks/webhook-event';
import type { LoggedEvent } from '../log/pet-event-log';
import type { FeedSubscriber } from './event-feed';

/** A comment line: proxies, load balancers and browsers close a connection that stays silent too long. */
export const KEEP_ALIVE = ': keep-alive\n\n';

/** One event in the stream's format: its position as `id`, its type, the webhook's body as one line of `data`. */
export const sseEvent = ({ position, type, createdAt, pet }: LoggedEvent): string =>
  `id: ${position}\nevent: ${type}\ndata: ${eventBody(type, createdAt, pet)}\n\n`;

/**
 * The position a stream starts after, as an id without data: no event, but a client (a browser's EventSource too)
 * that reconnects before the first event resumes from there, missing none created meanwhile.
 */
export const ssePosition = (position: number): string => `id: ${position}\n\n`;

/** The events after the position asked for are gone: the oldest position kept, to start again from. */
export const sseReset = (oldest: number): string => `event: reset\ndata: ${JSON.stringify({ oldest })}\n\n`;

/** The headers of every stream: never cached, never buffered by a proxy (nginx reads X-Accel-Buffering). */
export const STREAM_HEADERS: OutgoingHttpHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
};

export interface StreamLimits {
  /**
   * How often a comment is written: 10 s, inside the 15 s the interface promises, and under HAProxy's 15 s
   * `timeout server` (deploy/haproxy), which a stream silent that long would otherwise meet.
   */
  keepAliveMs: number;
  /** Bytes written but not yet taken by the client beyond which the stream ends; its client resumes from its last id. */
  maxUnsentBytes: number;
}

export const STREAM_LIMITS: StreamLimits = { keepAliveMs: 10_000, maxUnsentBytes: 1024 * 1024 };

/** One open stream on its response: the feed's events written as they come, a comment between, and its end. */
export class SseStream implements FeedSubscriber {
  private readonly keepAlive: NodeJS.Timeout;

  /** Sends the head and a first comment, which tells the client (and any proxy) at once that the stream is open. */
  static begin(response: ServerResponse, headers: OutgoingHttpHeaders, limits: StreamLimits = STREAM_LIMITS): SseStream {
    response.writeHead(200, { ...headers, ...STREAM_HEADERS });
    response.write(KEEP_ALIVE);
    return new SseStream(response, limits);
  }

  private constructor(
    private readonly response: ServerResponse,
    private readonly limits: StreamLimits,
  ) {
    this.keepAlive = setInterval(() => response.write(KEEP_ALIVE), limits.keepAliveMs);
    // Stryker disable next-line CallExpression: only whether the timer alone keeps a process up, which no answer shows
    this.keepAlive.unref();
    // Ended either way (the client gone, or closed below), the response closes.
    response.once('close', () => clearInterval(this.keepAlive));
  }

  deliver(events: readonly LoggedEvent[]): boolean {
    this.response.write(events.map(sseEvent).join(''));
    // Stryker disable next-line EqualityOperator: a byte either way at the bound, which no client tells apart
    return this.response.writableLength <= this.limits.maxUnsentBytes;
  }

  /** Names the position the stream starts after; written before any event, as a later one would send its client back. */
  startsAfter(position: number): void {
    this.response.write(ssePosition(position));
  }

  /** Says that the events after the position asked for are gone, and ends: its client starts again from `oldest`. */
  reset(oldest: number): void {
    this.response.end(sseReset(oldest));
  }

  /**
   * Ends the stream: when it fell behind, at once and with what its client had not taken (kept, it would hold that
   * memory until taken); when the service stops, cleanly, so that its client resumes on another instance.
   */
  closed(reason: 'behind' | 'stopping'): void {
    if (reason === 'behind') this.response.destroy();
    else this.response.end();
  }
}
