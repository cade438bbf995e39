import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * How long, and how much, the service reads from a client it answered before the request arrived in full. Closing at
 * once would make the kernel answer its next bytes with a reset, which discards the unread answer (RFC 9112, 9.6).
 */
export const LINGER = { ms: 2_000, bytes: 1024 * 1024 } as const;

/** Each lingering socket's `bytesRead` when it began to linger. */
const lingering = new WeakMap<Socket, number>();

/** Sends what is queued and then a FIN, and closes once the client closes too, or at the latest after LINGER.ms. */
export function closeAfterLingering(socket: Socket): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.set(socket, socket.bytesRead);
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER.ms).unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
}

/**
 * True when the socket lingers, so that the bytes are dropped unread. Past LINGER.bytes it stops reading: the client's
 * writes then stall instead of being answered with a reset, and it can still read the answer.
 */
export function discardWhileLingering(socket: Socket, body?: Readable): boolean {
  const start = lingering.get(socket);
  if (start === undefined) return false;
  if (socket.bytesRead - start > LINGER.bytes) {
    body?.pause();
    socket.pause();
  }
  return true;
}

/**
 * An answer given before the body has fully arrived closes the connection, after a lingering read. Node closes a
 * `Connection: close` response's socket with its `destroySoon`, so that one socket's `destroySoon` lingers instead.
 */
export function lingerIfBodyUnread(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  const raw = request.raw;
  if (!raw.complete) {
    reply.header('connection', 'close');
    (raw.socket as Socket & { destroySoon: () => void }).destroySoon = () => lingerOnBody(raw);
  }
  done(null, payload);
}

/** Node's parser goes on reading the body into the request: keep it flowing, and close once all of it arrived. */
function lingerOnBody(request: IncomingMessage): void {
  const socket = request.socket;
  closeAfterLingering(socket);
  request.on('data', () => discardWhileLingering(socket, request));
  request.once('end', () => socket.destroy());
  request.resume();
}
