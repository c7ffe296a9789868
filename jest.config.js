// `npm test`: every workspace's unit and integration specs, then the end-to-end suite against a running stack.
module.exports = {
  projects: ['<rootDir>/packages/*/jest.config.js', '<rootDir>/apps/*/jest.config.js', '<rootDir>/apps/edge/test/e2e/jest.config.js'],
  globalSetup: '<rootDir>/apps/cli/dist/testing/global-setup.js',
  globalTeardown: '<rootDir>/apps/cli/dist/testing/global-teardown.js',
};
