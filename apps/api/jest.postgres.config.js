// The HTTP suite again, on PostgreSQL: the same specs, each app on a database of its own (see test/support).
const base = require('./jest.config');

module.exports = {
  ...base,
  displayName: 'api:postgres',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  setupFiles: ['<rootDir>/test/support/use-postgres.js'],
};
