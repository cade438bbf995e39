import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiException } from '../errors/api-exception';
import { syncHook } from './sync-hook';

export const REQUEST_BOUNDS = {
  /** Longest request target. */
  urlBytes: 8 * 1024,
  /** Largest header section as sent, line ends included. */
  headerBytes: 16 * 1024,
  /** Largest body. */
  bodyBytes: 16 * 1024,
  /** Deepest JSON nesting of a body. */
  jsonDepth: 32,
} as const;

// A framing the server does not understand exactly could be read differently by a proxy in front of it: refuse it,
// and close the connection rather than guess where the next request starts.
const badFraming = (message: string) => new ApiException('bad_request', message, { connection: 'close' });

/** A header line's `: ` and CRLF (the value's surrounding spaces are not kept). */
const LINE_OVERHEAD = ': \r\n'.length;

/**
 * 414 and 431 before anything else. Node's own header limit is set above these bounds so that these answers, as Error
 * objects, come from here (client-error.ts). Node refuses most smuggling shapes itself; the rest are refused here.
 */
export function requestBoundsHook(request: FastifyRequest): void {
  if (request.raw.url && request.raw.url.length > REQUEST_BOUNDS.urlBytes) {
    throw new ApiException('uri_too_long', `The URL must not exceed ${REQUEST_BOUNDS.urlBytes} bytes.`);
  }
  const raw = request.raw.rawHeaders;
  let size = 0;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    // Node reads header bytes as latin1, so a string's length is its size in bytes.
    size += raw[i].length + raw[i + 1].length + LINE_OVERHEAD;
    if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts += 1;
  }
  if (size > REQUEST_BOUNDS.headerBytes) {
    throw new ApiException('header_too_large', `Request headers must not exceed ${REQUEST_BOUNDS.headerBytes} bytes in total, as sent.`);
  }
  const http11 = request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor === 1;
  if (http11 && hosts === 0) {
    throw new ApiException('bad_request', 'HTTP/1.1 requests must carry a Host header.');
  }
  if (hosts > 1) throw badFraming('A request must carry exactly one Host header.');
  const transferEncoding = request.headers['transfer-encoding'];
  // Node decodes chunked framing and nothing else: `gzip, chunked` would be taken as plain JSON. HTTP/1.0 has no
  // Transfer-Encoding at all (RFC 9112, section 6.1).
  if (transferEncoding !== undefined && (!http11 || transferEncoding.trim().toLowerCase() !== 'chunked')) {
    throw badFraming('Transfer-Encoding must be exactly "chunked", and only on HTTP/1.1 requests.');
  }
}

/** Bounds every request's head. */
export function useRequestBounds(fastify: FastifyInstance): void {
  // Node's default keeps only the first lines and silently drops the rest, which would go unmeasured.
  fastify.server.maxHeadersCount = 0;
  fastify.addHook('onRequest', syncHook(requestBoundsHook));
}
