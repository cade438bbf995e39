// Component tests in jsdom, with React's automatic JSX runtime; Jest merges this transform and the module names with
// the preset's (jest.preset.js), which every project shares.
module.exports = {
  displayName: 'storefront',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testEnvironment: '<rootDir>/src/testing/jsdom-environment.js',
  setupFilesAfterEnv: ['<rootDir>/src/testing/testing-library.ts'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.spec.tsx'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  transform: {
    '^.+\\.tsx$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } }, module: { type: 'commonjs' } },
    ],
  },
  coverageDirectory: '../../coverage/apps/storefront',
};
