// Shared jest settings: @swc/jest transform, unit specs beside the code, integration specs named *.int.spec.ts.
const path = require('node:path');

module.exports = (dir, overrides = {}) => ({
  displayName: path.relative(__dirname, dir),
  rootDir: dir,
  testEnvironment: 'node',
  // Integration specs start Nest apps and connect to Postgres, Redis and NATS; on a busy two-core machine that
  // alone can pass jest's 5 s default.
  testTimeout: 20_000,
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/test/e2e/'],
  ...overrides,
});
