// The end-to-end suite: its global setup launches the whole stack (two edge replicas) once per run.
module.exports = require('../../../../jest.preset')(__dirname, {
  displayName: 'e2e',
  testMatch: ['<rootDir>/**/*.e2e.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: '<rootDir>/global-setup.ts',
  globalTeardown: '<rootDir>/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/support/jest-timeout.ts'],
  testTimeout: 30000,
});
