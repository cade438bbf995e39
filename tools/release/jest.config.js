// The release's invariants: one version for the client, the contract and the OpenAPI document, and a dry run of
// `nx release` (so `npm test`, and CI with it, shows the next version would be cut cleanly).
module.exports = {
  displayName: 'release',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
