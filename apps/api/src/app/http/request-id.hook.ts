import type { FastifyReply, FastifyRequest } from 'fastify';

/** Echoes the request id so that a client can quote it when reporting a problem. */
export function requestIdHook(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
}
