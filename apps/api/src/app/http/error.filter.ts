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
    // Nest turns an unmatched route into a NotFoundException; answer 404 or 405 from the route table instead. A path
    // that the static files refuse to resolve names no resource either.
    const error = request.is404 || isRefusedFilePath(thrown) ? routeNotFound(request) : thrown;
    sendError(http.getResponse<FastifyReply>(), error, this.logger);
  }
}

const REFUSED_FILE_PATH = 'FST_STATIC_FORBIDDEN_PATH';

/**
 * @fastify/static's 403 (Swagger UI's files, the storefront's) for a path it will not resolve, such as
 * `/docs/%2e%2e/x`: thrown as is, or as the cause of the HttpException Nest makes of it.
 */
function isRefusedFilePath(thrown: unknown): boolean {
  const code = (error: unknown) => (error as { code?: unknown } | null | undefined)?.code;
  return code(thrown) === REFUSED_FILE_PATH || (thrown instanceof Error && code(thrown.cause) === REFUSED_FILE_PATH);
}

/** Writes any error as the Error object; shared by the Nest filter and Fastify's own error handler. */
export function sendError(reply: FastifyReply, thrown: unknown, logger: Pick<Logger, 'error'>): void {
  const { body, headers, unexpected } = toErrorResponse(thrown);
  if (unexpected) logger.error(thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown));
  if (reply.sent) return;
  reply.status(body.status).headers(headers).type('application/json; charset=utf-8').send(body);
}
