import type { OutgoingHttpHeaders } from 'node:http';
import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyHolder } from '../../auth/api-key-holder.decorator';
import { DatabaseConnection } from '../../database/database-connection';
import { ApiException } from '../../errors/api-exception';
import { RouteRules } from '../../http/route-rules';
import { ShutdownState } from '../../http/shutdown-state';
import { EventFeed, type FeedSubscriber } from './event-feed';
import { resumePosition } from './resume-position';
import { SseStream } from './sse-stream';
import { StreamEventsDocs } from './events-api-docs.decorator';
import { StreamCaps } from './stream-caps';

/**
 * The stream's response starts with its first event or when the feed admits it, not before: until then a failure
 * (the database unreadable) is still an Error object with its status.
 */
class StartedOnUse implements FeedSubscriber {
  private stream?: SseStream;

  constructor(private readonly start: () => SseStream) {}

  get started(): boolean {
    return this.stream !== undefined;
  }

  use(): SseStream {
    this.stream ??= this.start();
    return this.stream;
  }

  deliver(events: Parameters<FeedSubscriber['deliver']>[0]): boolean {
    return this.use().deliver(events);
  }

  closed(reason: 'behind' | 'stopping'): void {
    this.use().closed(reason);
  }
}

const shuttingDown = () =>
  new ApiException('service_unavailable', 'The service is shutting down; open the stream again and another instance will serve it.', { 'retry-after': '1' });

@ApiTags('events')
@Controller('events')
export class EventsController {
  constructor(
    private readonly feed: EventFeed,
    private readonly caps: StreamCaps,
    private readonly shutdown: ShutdownState,
    private readonly database: DatabaseConnection,
  ) {}

  @Get()
  @RouteRules({ query: ['after'] })
  @StreamEventsDocs()
  async streamEvents(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @ApiKeyHolder() holder: string): Promise<void> {
    const after = resumePosition(request.raw.rawHeaders, (request.query as Record<string, unknown>).after);
    if (this.shutdown.stopping) throw shuttingDown();
    // As every operation: a 503 at once while the database cannot serve, though the feed may hold what it would read.
    this.database.assertServing();
    const release = this.caps.admit(holder);
    let closeFeed: (() => void) | undefined;
    reply.raw.once('close', () => {
      closeFeed?.();
      release();
    });
    const stream = new StartedOnUse(() => {
      // Fastify sends nothing of its own from here on; nor does Nest for a handler with @Res(), so no answer shows it.
      // Stryker disable next-line CallExpression: as said above
      reply.hijack();
      return SseStream.begin(reply.raw, reply.getHeaders() as OutgoingHttpHeaders);
    });
    try {
      const opened = await this.feed.open(after, stream);
      if (opened.kind === 'reset') return stream.use().reset(opened.oldest);
      closeFeed = opened.close;
      // Its backlog delivered nothing yet: its client learns where it starts (events delivered carry their own ids).
      if (!stream.started) stream.use().startsAfter(opened.from);
      if (reply.raw.destroyed) opened.close();
    } catch (error) {
      if (!stream.started) throw error;
      // The events sent are whole: the stream ends after them, and its client resumes from the last one.
      reply.raw.end();
    }
  }
}
