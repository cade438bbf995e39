module.exports = {
  displayName: 'generators',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
