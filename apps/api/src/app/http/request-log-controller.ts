import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One JSON line per request, written when it completes (Fastify's default is two: incoming and completed).
 * It holds the request id, method, URL, status and time; never headers, so never the Authorization header.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {
    // Folded into requestCompleted.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: request.url.length > 256 ? `${request.url.slice(0, 256)}…` : request.url,
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
