import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ShutdownState } from './shutdown-state';

/**
 * Once the service stops listening, idle kept-alive connections are closed only after their traffic has been quiet
 * this long: a busy client's next request then gets its answer with `Connection: close` instead of a reset.
 */
const DRAIN_QUIET_MS = 250;

/** Once shutdown began, every response retires its connection, including those to requests read before. */
export function closeWhenStoppingHook(shutdown: ShutdownState) {
  return (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void => {
    if (shutdown.stopping) reply.header('connection', 'close');
    done(null, payload);
  };
}

/**
 * Stops accepting connections and waits until every connection has closed or gone quiet; Fastify's own close then
 * closes those still idle and waits for the requests in flight.
 */
export async function drainConnections(server: Server, quietMs = DRAIN_QUIET_MS): Promise<void> {
  if (!server.listening) return;
  let lastActivity = Date.now();
  const touch = () => (lastActivity = Date.now());
  const onRequest = (_request: unknown, response: NodeJS.EventEmitter) => {
    touch();
    response.once('finish', touch);
  };
  let closed = false;
  const drained = new Promise<void>((resolve) =>
    server.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  server.on('request', onRequest);
  // http.Server#close would close the idle connections at once, resetting requests already on their way.
  NetServer.prototype.close.call(server);
  try {
    for (let wait = quietMs; !closed && wait > 0; wait = lastActivity + quietMs - Date.now()) {
      await Promise.race([drained, delay(wait, undefined, { ref: false })]);
    }
  } finally {
    server.off('request', onRequest);
  }
}
