/** One message of a Server-Sent Events stream, as the HTML standard's parser dispatches it. */
export interface SseMessage {
  /** The last event ID seen so far in the stream (`id:` lines persist across messages), '' before any. */
  id: string;
  /** The `event:` field, `message` when the message named none. */
  event: string;
  /** The `data:` lines joined with line feeds. */
  data: string;
}

/** A block that set the last event ID without data: no message, but a position for a client that reconnects. */
export interface SseId {
  lastEventId: string;
}

/**
 * The event-stream parser of the HTML standard (§9.2.6), fed text as it arrives in any pieces: lines end in CRLF, LF
 * or CR (a CRLF may be split between two pieces); a line starting with a colon is a comment; one space after a field's
 * colon is dropped; a blank line dispatches the message if it has data. `retry:` is left to the caller's own backoff.
 */
export class SseParser {
  private buffer = '';
  /** A CR ended the last piece: an LF opening the next one belongs to it. */
  // Stryker disable next-line BooleanLiteral: an LF opening the stream ends an empty line, which dispatches nothing either way
  private afterCr = false;
  private started = false;
  private currentId = '';
  private eventType = '';
  private data: string[] = [];
  /** The block being read set the last event ID. */
  private idInBlock = false;

  /** The messages that the text completes, in order, and the blocks without data that set the last event ID. */
  push(text: string): Array<SseMessage | SseId> {
    if (text === '') return [];
    let piece = text;
    if (!this.started) {
      this.started = true;
      // A byte order mark opening the stream is not part of its first line.
      if (piece.startsWith('\uFEFF')) piece = piece.slice(1);
    }
    if (this.afterCr && piece.startsWith('\n')) piece = piece.slice(1);
    this.afterCr = false;
    this.buffer += piece;
    const messages: Array<SseMessage | SseId> = [];
    for (let end = this.buffer.search(/[\r\n]/); end !== -1; end = this.buffer.search(/[\r\n]/)) {
      const line = this.buffer.slice(0, end);
      const crlf = this.buffer[end] === '\r' && this.buffer[end + 1] === '\n';
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) this.afterCr = true;
      this.buffer = this.buffer.slice(end + (crlf ? 2 : 1));
      const message = this.line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  private line(line: string): SseMessage | SseId | undefined {
    if (line === '') return this.dispatch();
    // A comment (a line starting with a colon) names the empty field, which none reads.
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventType = value;
    // An id with a NUL in it is ignored, as the standard says.
    else if (field === 'id' && !value.includes('\0')) {
      this.currentId = value;
      this.idInBlock = true;
    }
    return undefined;
  }

  private dispatch(): SseMessage | SseId | undefined {
    const { data, eventType, idInBlock } = this;
    this.data = [];
    this.eventType = '';
    this.idInBlock = false;
    if (data.length === 0) return idInBlock ? { lastEventId: this.currentId } : undefined;
    return { id: this.currentId, event: eventType || 'message', data: data.join('\n') };
  }
}
