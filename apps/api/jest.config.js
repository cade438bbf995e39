module.exports = {
  displayName: 'api',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  // Several instances and outages need a server: they run in the PostgreSQL leg (jest.postgres.config.js) only.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/postgres/'],
  coverageDirectory: '../../coverage/apps/api',
};
