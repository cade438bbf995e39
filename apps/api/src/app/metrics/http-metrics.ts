import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { RouteRules } from '../http/route-rules';
import { CLIENT_ERROR_ANSWERED } from '../http/client-error';
import { routeTemplate } from '../http/route-template';
import type { Metrics } from './metrics';
import type { HistogramSeries } from './series-histogram';

/** Methods named as they are; any other is `_OTHER`, as OpenTelemetry's HTTP conventions say, to keep labels bounded. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** Stands for the route of requests that never reached the router. */
const NO_ROUTE: RouteRules = {};

/** The series of one route and method: made once, then shared by its requests. */
interface RouteSeries {
  labels: { http_request_method: string; http_route: string; operation: string };
  /** Requests in flight: a plain number, since prom-client's labelled inc and dec hash the labels each time. */
  active: number;
  durations: Map<number, HistogramSeries>;
}

/**
 * Counts every answer, whichever layer gave it: from the first request hook of all to the response's close, which
 * comes even when the client went away. Requests that match no route share the empty route (OpenTelemetry leaves
 * `http.route` unset then).
 */
export function useHttpMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  const byRoute = new WeakMap<object, Map<string, RouteSeries>>();
  const all: RouteSeries[] = [];
  metrics.activeRequests = () => all;

  /** `config`: the route's own object, one per route; `url` undefined when no route matched. */
  const seriesOf = (config: RouteRules, url: string | undefined, method: string): RouteSeries => {
    let forRoute = byRoute.get(config);
    if (!forRoute) byRoute.set(config, (forRoute = new Map()));
    let series = forRoute.get(method);
    if (!series) {
      const labels = { http_request_method: method, http_route: url === undefined ? '' : routeTemplate(url), operation: config.operation ?? '' };
      series = { labels, active: 0, durations: new Map() };
      forRoute.set(method, series);
      all.push(series);
    }
    return series;
  };

  const durationOf = (series: RouteSeries, status: number) => {
    let duration = series.durations.get(status);
    if (!duration) {
      duration = metrics.httpDuration.series({ ...series.labels, http_response_status_code: String(status) });
      series.durations.set(status, duration);
    }
    return duration;
  };

  // Requests Node could not parse (400, 408, 414, 431) are answered before Fastify sees them: no method, no route.
  const unparsed = seriesOf(NO_ROUTE, undefined, '_OTHER');
  fastify.server.on(CLIENT_ERROR_ANSWERED, (status: number) => durationOf(unparsed, status).observe(0));

  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const { config, url } = request.routeOptions;
    const series = seriesOf(config as RouteRules, url, KNOWN_METHODS.has(request.method) ? request.method : '_OTHER');
    series.active += 1;
    reply.raw.once('close', () => {
      series.active -= 1;
      durationOf(series, reply.statusCode).observe(reply.elapsedTime / 1000);
    });
    done();
  });
}
