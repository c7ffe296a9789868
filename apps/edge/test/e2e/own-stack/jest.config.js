// The end-to-end specs that launch a stack of their own, to kill and restart its processes: the e2e
// project's settings without its shared stack, so `npm test` can run them beside the shared stack's specs.
const path = require('node:path');
const e2e = require('../jest.config');

module.exports = {
  ...e2e,
  displayName: 'e2e-own-stack',
  rootDir: __dirname,
  testMatch: ['<rootDir>/*.e2e.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: undefined,
  globalTeardown: undefined,
  setupFilesAfterEnv: [path.join(__dirname, '..', 'support', 'jest-timeout.ts')],
};
