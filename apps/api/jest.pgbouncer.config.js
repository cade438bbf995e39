// The HTTP suite a third time: on PostgreSQL through PgBouncer in transaction pooling mode, with the repository's
// deploy/pgbouncer/pgbouncer.ini (each app's database is created on the server, and reached through the pooler).
const base = require('./jest.postgres.config');

module.exports = {
  ...base,
  displayName: 'api:pgbouncer',
  setupFiles: ['<rootDir>/test/support/use-pgbouncer.js'],
  globalSetup: '<rootDir>/../../tools/testing/src/jest/pgbouncer-global-setup.ts',
  globalTeardown: '<rootDir>/../../tools/testing/src/jest/pgbouncer-global-teardown.ts',
};
