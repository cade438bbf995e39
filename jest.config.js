const { getJestProjectsAsync } = require('@nx/jest');
const { spawnSync } = require('node:child_process');
const { userInfo } = require('node:os');
const { Client } = require('pg');

// As in apps/api/test/support/test-database.ts, which creates the databases of the PostgreSQL leg.
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? `postgres://${userInfo().username}@127.0.0.1:5432/test`;

/** The PostgreSQL leg runs when the server answers; CI insists on it, a laptop without PostgreSQL skips it aloud. */
async function postgresProject() {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return ['<rootDir>/apps/api/jest.postgres.config.js', ...pgbouncerProject()];
  } catch (error) {
    const reason = `PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable (${error.message})`;
    if (process.env.CI === 'true') throw new Error(`${reason}: CI runs the PostgreSQL leg and cannot skip it.`);
    process.stderr.write(`\nSKIPPED the PostgreSQL leg of the HTTP suite: ${reason}. Set TEST_POSTGRES_URL to run it.\n\n`);
    return [];
  }
}

/** The same suite through PgBouncer in transaction mode, when Debian's pgbouncer is installed; CI insists. */
function pgbouncerProject() {
  if (spawnSync('pgbouncer', ['--version']).status === 0) return ['<rootDir>/apps/api/jest.pgbouncer.config.js'];
  const reason = 'pgbouncer is not installed (apt-get install -y pgbouncer)';
  if (process.env.CI === 'true') throw new Error(`${reason}: CI runs the HTTP suite through PgBouncer and cannot skip it.`);
  process.stderr.write(`\nSKIPPED the PgBouncer leg of the HTTP suite: ${reason}.\n\n`);
  return [];
}

const isPostgresLeg = (config) => /jest\.(postgres|pgbouncer)\.config\.js$/.test(config);

// Every project's tests in one run, so that one summary closes `npm test`. Nx lists the PostgreSQL legs too (the
// api:test-postgres target); they are kept only when the server answers.
module.exports = async () => ({
  projects: [...(await getJestProjectsAsync()).filter((config) => !isPostgresLeg(config)), ...(await postgresProject())],
  reporters: ['default', '<rootDir>/tools/jest/summary-reporter.js'],
  // Jest reads the test timeout from the run's own configuration, not from its projects': the preset's, once more.
  testTimeout: require('./jest.preset.js').testTimeout,
  // Two workers even on two cores (Jest's default there is one): most suites wait on processes, sockets and
  // databases rather than compute, and the HAProxy and PgBouncer suites run for minutes mostly asleep. Measured on
  // this repository's CI machine: 604 s with one worker, 322 s with two, the same 1,704 tests passing.
  maxWorkers: 2,
});
