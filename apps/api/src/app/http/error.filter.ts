import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './error-response';
import { routeNotFound } from './route-table';

/** The one place where an error becomes a response: `{code, message, status}` as `application/json`. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(ErrorFilter.name);

  catch(thrown: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    // Nest turns an unmatched route into a NotFoundException; answer 404 or 405 from the route table instead.
    const error = request.is404 ? routeNotFound(request) : thrown;
    sendError(http.getResponse<FastifyReply>(), error, this.logger);
  }
}

/** Writes any error as the Error object; shared by the Nest filter and Fastify's own error handler. */
export function sendError(reply: FastifyReply, thrown: unknown, logger: Pick<Logger, 'error'>): void {
  const { body, headers, unexpected } = toErrorResponse(thrown);
  if (unexpected) logger.error(thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown));
  if (reply.sent) return;
  reply.status(body.status).headers(headers).type('application/json; charset=utf-8').send(body);
}
