// The test helpers' own logic (which ports they hand out); the suites that use them live in apps/.
module.exports = {
  displayName: 'testing',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
