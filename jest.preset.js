// One jest transform for every project: swc keeps decorator metadata, which NestJS DI and class-validator need.
const { join } = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

// The workspace aliases of tsconfig.base.json, so specs import libraries exactly as the code does.
const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, join(__dirname, target)]),
);

module.exports = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
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
