import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { PetStatus } from '@petstore/contract';
import { unknownInput } from '../../http/contract-validation.pipe';
import { DocumentedOperation } from '../../http/documented-operation';
import { fixedHeader } from '../../http/header-docs';
import { responses } from '../../operation-docs/operation-responses';
import { resumePosition } from './resume-position';
import { KEEP_ALIVE, sseEvent, ssePosition, STREAM_LIMITS } from './sse-stream';
import { tooManyStreams } from './stream-caps';

// OpenAPI for the event stream, kept beside its controller.

/** What a thrown refusal of the stream's request is, for an example. */
const refusalOf = (request: () => unknown): unknown => {
  try {
    request();
  } catch (error) {
    return error;
  }
  throw new Error('the example request was not refused');
};

const EVENT_ID_SCHEMA = { type: 'string', pattern: '^(0|[1-9][0-9]{0,15})$', maxLength: 16, example: '42' } as const;

/** A stream's first bytes, opened without a position: the comment that opens it, where it starts, then an event. */
const EXAMPLE =
  KEEP_ALIVE +
  ssePosition(41) +
  sseEvent({ position: 42, type: 'pet.created', createdAt: Date.UTC(2026, 11, 6, 9, 30), pet: { id: 7, name: 'Rex', categoryId: 1, status: PetStatus.Available } });

/** The cap per key that the example names: the default of EVENT_STREAMS_PER_KEY. */
const DEFAULT_STREAMS_PER_KEY = 20;

export const StreamEventsDocs = () => {
  const answers = responses('streamEvents', {});
  return applyDecorators(
    DocumentedOperation({
      operationId: 'streamEvents',
      summary: 'Follow events as they happen',
      description:
        'Server-Sent Events (`text/event-stream`): every `pet.created`, on every instance, as it happens. Each event ' +
        'has `id:` (its position: an integer that increases with every event, the same on every instance), `event:` ' +
        '(its type) and `data:` (the webhook body, `PetCreatedEvent`, as one line). Without `Last-Event-ID` or ' +
        '`after`, the stream starts at the next event; with one, it sends every event after that position, in ' +
        'order, then live ones. A stream that has no event to send when it opens says where it starts: an `id:` ' +
        'line without data, the position it starts after (EventSource keeps it as its last event id), so that a ' +
        'client dropped before its first event resumes from there. At least once: deduplicate by `id`. A position no longer kept (events are kept 7 ' +
        'days) or never given answers one `event: reset` whose `data` names the oldest position kept, and ends. A ' +
        `comment line (\`: keep-alive\`) comes every ${STREAM_LIMITS.keepAliveMs / 1000} s. The stream ends when the ` +
        'service stops, or when its client has not taken what was sent (1 MiB): open it again with `Last-Event-ID`.',
    }),
    ApiHeader({
      name: 'Last-Event-ID',
      required: false,
      description: 'Resume after this event id (EventSource sends it when it reconnects). Wins over `after`.',
      schema: EVENT_ID_SCHEMA,
    }),
    ApiQuery({
      name: 'after',
      required: false,
      description: 'Resume after this event id, for clients that cannot set headers.',
      schema: EVENT_ID_SCHEMA,
    }),
    ApiResponse({
      status: 200,
      description:
        'The stream: events, each as `id`, `event` and `data`; or one `event: reset` with `data: {"oldest":<id>}` when ' +
        'the position asked for is gone.',
      // No schema: a stream has no length to bound, and its format is the description's.
      content: { 'text/event-stream': { example: EXAMPLE } },
      headers: answers.authenticated({
        'Cache-Control': fixedHeader('Never cached.', 'no-store'),
        'X-Accel-Buffering': fixedHeader('Tells a proxy (nginx) not to buffer the stream.', 'no'),
      }),
    }),
    answers.error(400, '`Last-Event-ID` or `after` is not an event id, or another query parameter was sent (`validation_failed`).', {
      last_event_id: ['Last-Event-ID: abc', refusalOf(() => resumePosition(['Last-Event-ID', 'abc'], undefined))],
      after: ['after=-1', refusalOf(() => resumePosition([], '-1'))],
      unknown_query_parameter: ['A misspelt parameter: afer=42', unknownInput('query', ['afer'])],
    }),
    // The instance's own cap (EVENT_STREAMS_MAX) is answered alike, naming it.
    ...answers.common({ tooMany: { streams_per_key: ['More streams than a key may hold open', tooManyStreams('key', DEFAULT_STREAMS_PER_KEY)] } }),
  );
};
