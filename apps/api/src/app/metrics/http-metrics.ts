import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { RouteRules } from '../http/route-rules';
import type { Metrics } from './metrics';

/** Methods named as they are; any other is `_OTHER`, as OpenTelemetry's HTTP conventions say, to keep labels bounded. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** The series of one route and method: made once, then shared by its requests. */
interface RouteSeries {
  labels: { http_request_method: string; http_route: string; operation: string };
  active: { inc(): void; dec(): void };
  durations: Map<number, { observe(seconds: number): void }>;
}

/** `/v1/pets/:petId` as OpenAPI and OpenTelemetry write it: `/v1/pets/{petId}`. */
export const routeTemplate = (url: string | undefined): string => (url ?? '').replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * Counts every answer, whichever layer gave it (a hook's 401 or 429, the parser's 413, a 404 or 405 for no route, a
 * handler's 5xx): the first request hook of all starts it, and the response's close, which comes whether the answer
 * was sent or the client went away, ends it. Requests that match no route share one route value, the empty one
 * (OpenTelemetry leaves `http.route` unset then).
 */
export function useHttpMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  const byRoute = new WeakMap<object, Map<string, RouteSeries>>();

  const seriesOf = (request: FastifyRequest): RouteSeries => {
    const { config, url } = request.routeOptions;
    const method = KNOWN_METHODS.has(request.method) ? request.method : '_OTHER';
    let forRoute = byRoute.get(config);
    if (!forRoute) byRoute.set(config, (forRoute = new Map()));
    let series = forRoute.get(method);
    if (!series) {
      const labels = { http_request_method: method, http_route: routeTemplate(url), operation: (config as RouteRules).operation ?? '' };
      series = { labels, active: metrics.httpActive.labels(labels), durations: new Map() };
      forRoute.set(method, series);
    }
    return series;
  };

  const durationOf = (series: RouteSeries, status: number) => {
    let duration = series.durations.get(status);
    if (!duration) {
      duration = metrics.httpDuration.labels({ ...series.labels, http_response_status_code: String(status) });
      series.durations.set(status, duration);
    }
    return duration;
  };

  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const series = seriesOf(request);
    series.active.inc();
    reply.raw.once('close', () => {
      series.active.dec();
      durationOf(series, reply.statusCode).observe(reply.elapsedTime / 1000);
    });
    done();
  });
}
