import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { FastifyHttpOptions, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { ApiException } from '../errors/api-exception';
import { sendError } from './error.filter';
import { clientErrorHandler } from './client-error';
import { REQUEST_BOUNDS } from './request-bounds';
import { RequestLogController } from './request-log-controller';
import { API_SECURITY_HEADERS } from './security-headers';

// A client may name its request for tracing; anything that could forge a log line is replaced.
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}

/** The HTTP server's own settings, which apply before any route runs. */
export function fastifyOptions(logger: Logger): FastifyHttpOptions<Server> {
  return {
    loggerInstance: logger,
    // Fastify passes the route's log level, '' when none is set, and pino would rebuild the child's level methods on
    // every request; a child at its parent's level needs no options.
    childLoggerFactory: (parent, bindings, options) =>
      options.level || options.serializers ? parent.child(bindings, options) : parent.child(bindings),
    logController: new RequestLogController(),
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: REQUEST_BOUNDS.bodyBytes,
    // Path parameters longer than this would not match a route and turn a 400 into a 404.
    routerOptions: { maxParamLength: REQUEST_BOUNDS.urlBytes },
    // A slow client cannot hold a connection.
    requestTimeout: 10_000,
    keepAliveTimeout: 5_000,
    forceCloseConnections: 'idle',
    // While closing, a request on a kept-alive connection is served (with `Connection: close`), not refused.
    return503OnClosing: false,
    http: {
      // Above REQUEST_BOUNDS so that requestBoundsHook answers 414/431 itself with the Error object.
      maxHeaderSize: 2 * REQUEST_BOUNDS.headerBytes + REQUEST_BOUNDS.urlBytes,
      headersTimeout: 10_000,
      // How often Node checks those timeouts; its default of 30 s would let a slow client stay up to 40 s.
      connectionsCheckingInterval: 1_000,
      requireHostHeader: false,
    },
    clientErrorHandler,
    // The router rejects a malformed path or an over-long path parameter before any hook runs, so the hooks'
    // headers are set here.
    frameworkErrors: (error, request, reply) => {
      reply.headers({ ...API_SECURITY_HEADERS, 'x-request-id': request.id });
      sendError(
        reply as FastifyReply,
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiException('uri_too_long', `The URL must not exceed ${REQUEST_BOUNDS.urlBytes} bytes.`)
          : new ApiException('bad_request', 'The request path is not validly percent-encoded.'),
        logger,
      );
    },
  };
}
