import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyBaseLogger, FastifyInstance, RouteOptions } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { declareRouteRules } from '../http/route-rules';
import { strictPageSecurityHeaders } from '../http/security-headers';

/** Where the storefront is served: on the API's own origin, outside its version prefix. */
export const STOREFRONT_PATH = '/storefront';

const STOREFRONT_ROUTE = new RegExp(`^${STOREFRONT_PATH}(?:/|$)`);

/** Vite writes content-hashed file names under assets/: a new build names new files, so these never change. */
const HASHED_ASSETS = 'assets';

/**
 * A hashed asset may be kept for good; anything else (index.html, which names the current assets) is checked with the
 * server before each use.
 */
export function storefrontCacheControl(pathInBuild: string): string {
  return pathInBuild.split(sep)[0] === HASHED_ASSETS ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Undefined when disabled or not built (logged), so that the service starts either way. `logger` is the app's own, as
 * Nest's loggers are shared by the apps a test starts.
 */
export function builtStorefront(config: AppConfig, logger: Pick<FastifyBaseLogger, 'warn'>): string | undefined {
  if (!config.storefront) return undefined;
  const { directory } = config.storefront;
  if (existsSync(join(directory, 'index.html'))) return directory;
  logger.warn(
    { context: 'Storefront' },
    `Storefront not built (no index.html in ${directory}): ${STOREFRONT_PATH}/ answers 404. ` +
      'Build it with "npx nx build storefront" (npm start does), or set STOREFRONT_ENABLED=false.',
  );
  return undefined;
}

/**
 * Public, as the page asks the person for a key, with the strict page policy. Call before useBearerAuth;
 * serveStorefront registers the routes later.
 */
export function declareStorefrontRoutes(fastify: FastifyInstance): void {
  declareRouteRules(fastify, ({ url }: RouteOptions) => STOREFRONT_ROUTE.test(url), {
    public: true,
    headers: strictPageSecurityHeaders(),
  });
}

/**
 * Its own routes, with no global hook, so that the API's requests pay nothing for it. An unknown path below is a 404,
 * not index.html: the page keeps its state in the query string, so another path is a mistake a 200 would hide.
 */
export function serveStorefront(fastify: FastifyInstance, directory: string): void {
  void fastify.register(fastifyStatic, {
    root: directory,
    prefix: STOREFRONT_PATH,
    redirect: true,
    // Swagger UI registers this plugin too, and the reply needs no sendFile of ours.
    decorateReply: false,
    dotfiles: 'ignore',
    cacheControl: false,
    setHeaders: (reply, path) => reply.header('cache-control', storefrontCacheControl(relative(directory, path))),
  });
}
