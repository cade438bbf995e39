// One StrykerJS configuration per core area of the API (docs/testing.md, "Mutation testing"): the area's source is
// mutated, and judged by its unit specs and the HTTP specs that start the app for it, on SQLite unless the area is
// PostgreSQL's own code.

/**
 * @param {string} name the area, as in the report's folder `reports/mutation/api-<name>`
 * @param {{ mutate: string[], specs: string[], ignoreStatic?: boolean, database?: 'sqlite' | 'postgres' }} area globs under
 *   `apps/api/` of the source to mutate and of the specs that judge it. `ignoreStatic`: leave out mutants of
 *   module-level code, each of which would rerun every spec of the area; only where that is too long for two cores,
 *   and said in docs/testing.md. `database`: the one the specs run on (the server of docs/testing.md for `postgres`).
 */
export function apiArea(name, { mutate, specs, ignoreStatic = false, database = 'sqlite' }) {
  return {
    $schema: '../../../node_modules/@stryker-mutator/core/schema/stryker-schema.json',
    testRunner: 'jest',
    jest: {
      projectType: 'custom',
      configFile: database === 'postgres' ? 'apps/api/jest.postgres.config.js' : 'apps/api/jest.config.js',
      enableFindRelatedTests: false,
      config: { testMatch: specs.map((spec) => `<rootDir>/${spec}`) },
    },
    checkers: ['typescript'],
    tsconfigFile: 'apps/api/tsconfig.app.json',
    mutate: [...mutate.map((glob) => glob.replace(/^(!?)/, '$1apps/api/')), '!apps/api/**/*.spec.ts'],
    ignoreStatic,
    coverageAnalysis: 'perTest',
    concurrency: 2,
    thresholds: { high: 90, low: 85, break: 85 },
    reporters: ['html', 'clear-text', 'progress', 'json'],
    htmlReporter: { fileName: `reports/mutation/api-${name}/index.html` },
    jsonReporter: { fileName: `reports/mutation/api-${name}/mutation.json` },
    incremental: true,
    incrementalFile: `apps/api/stryker/${name}.incremental.json`,
    tempDirName: `tmp/stryker/api-${name}`,
    cleanTempDir: 'always',
    ignorePatterns: ['/*', '!/apps/api', '!/libs/contract', '!/tools/testing', '!/jest.preset.js', '!/tsconfig.base.json', '!/package.json', '!/.swcrc'],
  };
}
