// The surface check of the client and the contract on their built typings (npm test builds them before Jest runs).
module.exports = {
  displayName: 'api-report',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
