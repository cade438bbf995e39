const { getJestProjectsAsync } = require('@nx/jest');

// Every project's tests in one run, so that one summary closes `npm test`.
module.exports = async () => ({
  projects: await getJestProjectsAsync(),
  reporters: ['default', '<rootDir>/tools/jest/summary-reporter.js'],
});
