import type { FastifyRequest } from 'fastify';
import { ApiException } from '../errors/api.exception';

export const REQUEST_BOUNDS = {
  /** Longest request target. */
  urlBytes: 8 * 1024,
  /** Largest total of header names and values. */
  headerBytes: 16 * 1024,
  /** Largest body. */
  bodyBytes: 16 * 1024,
  /** Deepest JSON nesting of a body. */
  jsonDepth: 32,
} as const;

/**
 * 414 and 431 before anything else. Node's own header limit is set above these bounds so that these
 * answers, as Error objects, come from here; Node's limit remains the backstop for truly huge heads.
 */
export async function requestBoundsHook(request: FastifyRequest): Promise<void> {
  if (request.raw.url && request.raw.url.length > REQUEST_BOUNDS.urlBytes) {
    throw new ApiException('uri_too_long', `The URL must not exceed ${REQUEST_BOUNDS.urlBytes} bytes.`);
  }
  const raw = request.raw.rawHeaders;
  let size = 0;
  for (const part of raw) size += part.length;
  if (size > REQUEST_BOUNDS.headerBytes) {
    throw new ApiException('header_too_large', `Request headers must not exceed ${REQUEST_BOUNDS.headerBytes} bytes in total.`);
  }
  if (request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor === 1 && request.headers.host === undefined) {
    throw new ApiException('bad_request', 'HTTP/1.1 requests must carry a Host header.');
  }
}
