// The breaking-change gate: each kind of break seeded into a copy of the committed document, and the committed
// document against its latest release (so `npm test`, and CI with it, runs the gate).
module.exports = {
  displayName: 'api-gate',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
