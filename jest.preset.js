// One jest transform for every project: swc keeps decorator metadata, which NestJS DI and class-validator need.
const { join } = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

// The workspace aliases of tsconfig.base.json, so specs import libraries exactly as the code does.
const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, join(__dirname, target)]),
);

// Packages that Node resolves to ES modules only (NestJS 12, and the dependencies of ours or theirs that ship nothing
// else): swc compiles them to CommonJS as it does our sources, once, into Jest's cache. Jest could load them as ES
// modules instead, but only with Node's experimental VM modules, which made the whole run slower (docs/testing.md).
const ESM_ONLY_PACKAGES = ['@nestjs', 'commander', 'content-disposition', 'cookie', 'set-cookie-parser', 'p-limit', 'yocto-queue'];

module.exports = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY_PACKAGES.join('|')})/)`],
  transform: {
    '^.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleNameMapper,
  // Every test and hook waits at most this long: a deadline for a machine several times slower than a quiet one (a
  // busy laptop, a shared runner), never Jest's 5 s. A test bounds a time itself only where the bound is behaviour.
  testTimeout: 60_000,
  clearMocks: true,
  restoreMocks: true,
};
