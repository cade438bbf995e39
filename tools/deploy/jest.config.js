// The deploy files made from others (deploy/kubernetes/prometheus-operator from deploy/prometheus): each committed
// file is what its generator writes today.
module.exports = {
  displayName: 'deploy-files',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
