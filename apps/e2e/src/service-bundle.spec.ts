import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SERVICE_MAIN } from '@petstore/testing';

/**
 * Packages the built service must load from node_modules at run time, never copy into its bundle: the native drivers,
 * what OpenTelemetry patches as Node loads it, and what reads files beside itself (pino's transports, Swagger UI's
 * assets, whose folder a copy would look for beside the bundle). apps/api/webpack.config.js keeps them outside.
 */
const MUST_STAY_OUTSIDE = /[\\/]node_modules[\\/](sqlite3|pg|pino|thread-stream|swagger-ui-dist|@opentelemetry[\\/][^\\/]+)[\\/]/;

describe('the service bundle', () => {
  it('holds none of the packages it must load from node_modules, in any of its files', () => {
    const dir = dirname(SERVICE_MAIN);
    const maps = readdirSync(dir).filter((file) => file.endsWith('.js.map'));
    const sources = maps.flatMap((file) => (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { sources: string[] }).sources);
    // The bundle's modules, ours and the dependencies it does carry (Nest, Fastify, TypeORM, …).
    expect(sources.filter((source) => /[\\/]node_modules[\\/]@nestjs[\\/]core[\\/]/.test(source)).length).toBeGreaterThan(10);
    expect(sources.filter((source) => MUST_STAY_OUTSIDE.test(source))).toEqual([]);
  });
});
