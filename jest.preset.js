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
  clearMocks: true,
  restoreMocks: true,
};
