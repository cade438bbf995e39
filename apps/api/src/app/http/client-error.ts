import type { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { ErrorBody, ErrorCode } from '@petstore/contract';
import { closeAfterLingering, discardWhileLingering } from './lingering-close';
import { REQUEST_BOUNDS } from './request-bounds';
import { API_SECURITY_HEADERS } from './security-headers';

type Refusal = [number, ErrorCode, string];

/** Emitted on the HTTP server with the status of each answer given here, which Fastify never sees (for the metrics). */
export const CLIENT_ERROR_ANSWERED = 'petstore:client-error-answered';

// Node rejects some requests before Fastify sees them: too large, unparseable, smuggling-shaped or late.
const BY_NODE_CODE: Record<string, Refusal> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request did not arrive in time.'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'request_timeout', 'The request headers did not arrive in time.'],
};
const MALFORMED: Refusal = [400, 'bad_request', 'The request is not valid HTTP/1.1.'];
const URI_TOO_LONG: Refusal = [414, 'uri_too_long', `The URL must not exceed ${REQUEST_BOUNDS.urlBytes} bytes.`];
const HEADER_TOO_LARGE: Refusal = [431, 'header_too_large', `Request headers must not exceed ${REQUEST_BOUNDS.headerBytes} bytes in total, as sent.`];

const REQUEST_LINE_START = /^[A-Z]+ /;

/**
 * Node reports one overflow for the request line and the header lines together; the bytes it was parsing when it gave
 * up tell which. Only a huge header line arriving in pieces, after the piece with the request line, is taken for a URL.
 */
export function overflowOf(packet: Buffer | undefined, bytesParsed: number | undefined): Refusal {
  if (!packet) return HEADER_TOO_LARGE;
  const parsed = packet.subarray(0, bytesParsed ?? packet.length);
  const lineEnd = parsed.indexOf(0x0a);
  if (lineEnd === -1) return URI_TOO_LONG;
  const startsRequest = REQUEST_LINE_START.test(parsed.subarray(0, 16).toString('latin1'));
  return startsRequest && lineEnd > REQUEST_BOUNDS.urlBytes ? URI_TOO_LONG : HEADER_TOO_LARGE;
}

/** Node's parse errors carry the chunk being parsed and how far into it the parser got. */
interface ParseError extends Error {
  code?: string;
  rawPacket?: unknown;
  bytesParsed?: number;
}

/** Answers a request Node could not parse with the Error object, then closes the connection after a lingering read. */
export function clientErrorHandler(error: ParseError, socket: Socket): void {
  // Node goes on parsing what the client still sends after the answer, and fails on each chunk again.
  if (discardWhileLingering(socket)) return;
  // Already answered on this connection (e.g. refused at its headers): a second answer would be read as the reply to
  // a request the client never meant to send.
  const answering = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage?.headersSent === true;
  if (error.code === 'ECONNRESET' || !socket.writable || answering) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW' ? overflowOf(Buffer.isBuffer(error.rawPacket) ? error.rawPacket : undefined, error.bytesParsed) : (BY_NODE_CODE[error.code ?? ''] ?? MALFORMED);
  const body = JSON.stringify({ code, message, status } satisfies ErrorBody);
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      Object.entries(API_SECURITY_HEADERS)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
  (socket as Socket & { server?: EventEmitter }).server?.emit(CLIENT_ERROR_ANSWERED, status);
  closeAfterLingering(socket);
}
