import { type DynamicModule, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger as Pino } from 'pino';
import { API_PREFIX } from '@petstore/contract';
import { AppModule } from './app.module';
import { ApiKeysService } from './auth/api-keys.service';
import { DatabaseConnection } from './database/database-connection';
import { useBearerAuth } from './auth/bearer-auth.hook';
import type { AppConfig } from './config/app-config';
import { serveHome } from './home/home-page';
import { declareDocsRoutes, setupDocs } from './openapi/setup-docs';
import { ErrorFilter } from './http/error.filter';
import { ShutdownState } from './http/shutdown-state';
import { ContractValidationPipe } from './http/contract-validation.pipe';
import { useCors } from './http/cors';
import { fastifyOptions } from './http/fastify-options';
import { useJsonBodyParser } from './http/json-body-parser';
import { lingerIfBodyUnread } from './http/lingering-close';
import { useRequestBounds } from './http/request-bounds';
import { requestIdHook } from './http/request-id.hook';
import { recordRoutes } from './http/route-table';
import { useRouteRules } from './http/route-rules';
import { useSecurityHeaders } from './http/security-headers';
import { syncHook } from './http/sync-hook';
import { closeWhenStoppingHook, drainConnections } from './http/shutdown.hook';
import { createLogger } from './logging/create-logger';
import { NestLogger } from './logging/nest-logger';
import { useHttpMetrics } from './metrics/http-metrics';
import { Metrics } from './metrics/metrics';
import { RateLimits } from './rate-limit/rate-limits';
import { announceAddresses } from './start-up-line';
import { builtStorefront, declareStorefrontRoutes, serveStorefront } from './storefront/serve-storefront';

/**
 * The application exactly as it runs in production; `main.ts` and the tests both come through here. Tests wrap the
 * `root` module to add routes of their own.
 */
export async function createApp(
  config: AppConfig,
  logger: Pino = createLogger(config.logLevel),
  root: DynamicModule = AppModule.forRoot(config, logger),
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    root,
    new FastifyAdapter(fastifyOptions(logger)),
    // Our own JSON parser replaces Nest's; logs wait for the pino logger; start-up errors are thrown, not exited on.
    { bodyParser: false, bufferLogs: true, abortOnError: false },
  );
  await configureApp(app, config);
  await app.init();
  return app;
}

/** Everything between the framework and our handlers, in the order a request meets it. */
export async function configureApp(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  app.useLogger(app.get(NestLogger));
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(Metrics);
  // The first request hook of all, so that every answer is counted, whichever hook or layer gives it.
  useHttpMetrics(fastify, metrics);
  recordRoutes(fastify);
  // With tracing off, neither the hook nor OpenTelemetry is loaded.
  if (config.tracing) (await import('./observability/tracing/request-spans')).useRequestSpans(fastify);
  useJsonBodyParser(fastify);
  // Security headers first of the request hooks; then CORS, which declares its route public, as below for the docs.
  useSecurityHeaders(fastify);
  useCors(app, config);
  declareDocsRoutes(fastify, config);
  // Off, or not built: no route at all, so /storefront/ is the 404 of any unknown path.
  const storefront = builtStorefront(config, fastify.log);
  if (storefront) declareStorefrontRoutes(fastify);
  // Each route's own hooks, decided from its config as it is registered (so after the declarations above), run after
  // the global hooks below: authentication unless the route is public, then what the route declares for itself.
  useBearerAuth(fastify, app.get(ApiKeysService), app.get(RateLimits), metrics);
  useRouteRules(fastify);
  fastify.addHook('onRequest', syncHook(requestIdHook));
  useRequestBounds(fastify);
  fastify.addHook('onSend', closeWhenStoppingHook(app.get(ShutdownState)));
  fastify.addHook('onSend', lingerIfBodyUnread);
  fastify.addHook('preClose', () => drainConnections(fastify.server));
  // After the last response, and before Nest's shutdown hooks, where TypeOrmModule's would close the database first.
  fastify.addHook('onClose', () => app.get(DatabaseConnection).close());

  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      { path: 'health/live', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
      { path: 'health/routable', method: RequestMethod.GET },
    ],
  });
  app.useGlobalPipes(new ContractValidationPipe());
  app.useGlobalFilters(new ErrorFilter());
  setupDocs(app, config);
  if (storefront) serveStorefront(fastify, storefront);
  serveHome(fastify, { storefront: Boolean(storefront) });
  announceAddresses(fastify, { storefront: Boolean(storefront), configuredBaseUrl: config.publicBaseUrl });
}
