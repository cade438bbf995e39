import { validationFailed } from '../../errors/api-exception';
import { REPEATED, singleHeader } from '../../http/single-header';

/** An event's id as the stream sends it: a whole number from 0, written plainly. */
const EVENT_ID = /^(0|[1-9][0-9]{0,15})$/;

/**
 * Where a stream resumes: after the position `Last-Event-ID` names (what EventSource sends when it reconnects), else
 * the one the `after` query parameter names (for clients that cannot set headers), else nowhere (undefined: from the
 * next event). Either, sent but not one event id, is a 400.
 */
export function resumePosition(rawHeaders: readonly string[], after: unknown): number | undefined {
  const header = singleHeader(rawHeaders, 'last-event-id');
  if (header !== undefined) return eventId(header, 'The Last-Event-ID header');
  if (after !== undefined) return eventId(typeof after === 'string' ? after : REPEATED, 'The query parameter `after`');
  return undefined;
}

function eventId(value: string | typeof REPEATED, where: string): number {
  const position = value === REPEATED || !EVENT_ID.test(value) ? NaN : Number(value);
  if (Number.isSafeInteger(position)) return position;
  const problem = value === REPEATED ? 'was sent more than once' : 'is not an event id';
  throw validationFailed(`${where} ${problem}: an event id is a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, the id of an event a stream sent.`);
}
