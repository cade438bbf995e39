import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { ErrorBody, ErrorCode } from '@petstore/contract';
import { EARLY_RESPONSE_HEADERS } from './security';

// Node rejects some requests before Fastify sees them: heads too large, unparseable or smuggling-shaped
// requests (e.g. Content-Length with Transfer-Encoding), and requests that did not arrive in time.
const BY_NODE_CODE: Record<string, [number, ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'header_too_large', 'Request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request did not arrive in time.'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'request_timeout', 'The request headers did not arrive in time.'],
};
const MALFORMED: [number, ErrorCode, string] = [400, 'bad_request', 'The request is not valid HTTP/1.1.'];

/** Answers a request Node could not parse with the Error object, then closes the connection. */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A request already answered on this connection (e.g. refused at its headers) whose remaining bytes Node then
  // fails to parse: a second answer would be read as the reply to a request the client never meant to send.
  const answering = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage?.headersSent === true;
  if (error.code === 'ECONNRESET' || !socket.writable || answering) {
    socket.destroy();
    return;
  }
  const [status, code, message] = BY_NODE_CODE[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ code, message, status } satisfies ErrorBody);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      Object.entries(EARLY_RESPONSE_HEADERS)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
