// .cjs: package.json here is the published manifest, "type": "module".
module.exports = {
  displayName: 'client',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../coverage/libs/client',
};
