const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('node:path');

/**
 * Packages left outside the bundle, installed beside it: native drivers (and what TypeORM loads by name for them),
 * packages whose workers or files are loaded by path (pino's transports, Swagger UI's assets), and OpenTelemetry, which
 * patches `pg`, `pino` and `http` as Node loads them (apps/e2e/src/service-bundle.spec.ts holds the bundle to that).
 * Everything else is minified into the bundle, so the process does not hold the source text of every module it loads
 * (docs/performance.md, where the memory goes).
 */
const EXTERNAL = [
  'sqlite3',
  'pg',
  'pg-native',
  'pg-query-stream',
  'better-sqlite3',
  'pino',
  'pino-pretty',
  'thread-stream',
  'swagger-ui-dist',
  'swagger-ui-dist/absolute-path.js',
  '@opentelemetry/api',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/instrumentation-http',
  '@opentelemetry/instrumentation-pg',
  '@opentelemetry/instrumentation-pino',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-node',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/semantic-conventions',
  // Optional packages that Nest, its mapped types and its Fastify adapter try to load and find absent: left to that
  // attempt at run time, as without a bundle.
  '@fastify/multipart',
  '@fastify/view',
  '@nestjs/microservices',
  '@nestjs/microservices/microservices-module.js',
  '@nestjs/platform-express',
  '@nestjs/websockets',
  '@nestjs/websockets/socket-module.js',
  'class-transformer/storage',
];

/** Terminus's gRPC indicator is an ES module reading `import.meta.dirname`; in this CommonJS bundle that is `__dirname`. */
class ImportMetaDirnameAsDirname {
  apply(compiler) {
    new compiler.webpack.DefinePlugin({ 'import.meta.dirname': '__dirname' }).apply(compiler);
  }
}

module.exports = {
  // Dependencies' own dynamic requires (Nest's optional packages, TypeORM's drivers it loads by name) and their
  // missing source maps: known, and harmless at run time; warnings about our own code still show.
  ignoreWarnings: [(warning) => /[\\/]node_modules[\\/]/.test(warning.module?.resource ?? '')],
  output: { path: join(__dirname, '../../dist/apps/api'), clean: true },
  // The service and its commands share one file of dependencies rather than a copy each: the image carries all four.
  optimization: {
    splitChunks: { cacheGroups: { dependencies: { test: /[\\/]node_modules[\\/]/, name: 'dependencies', chunks: 'all' } } },
  },
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      // The service's commands besides serving (npm run keys, npm run webhooks, npm run openapi): built with it, from
      // the same sources.
      additionalEntryPoints: [
        { entryName: 'keys', entryPath: './src/admin/keys.command.ts' },
        { entryName: 'webhooks', entryPath: './src/admin/webhooks.command.ts' },
        { entryName: 'openapi', entryPath: './src/admin/openapi.command.ts' },
      ],
      tsConfig: './tsconfig.app.json',
      externalDependencies: EXTERNAL,
      // Minified, with class names kept: log contexts and Nest's providers are named by them.
      optimization: true,
      outputHashing: 'none',
      generatePackageJson: true,
      sourceMap: true,
    }),
    new ImportMetaDirnameAsDirname(),
  ],
};
