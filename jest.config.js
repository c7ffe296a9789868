// Every workspace's unit (*.spec.ts) and integration (*.int.spec.ts) specs, and the
// end-to-end suite (apps/edge/test/e2e), which starts its own stack in its global setup, and the end-to-end
// specs that launch and kill stacks of their own (apps/edge/test/e2e/own-stack).
module.exports = {
  projects: [
    '<rootDir>/packages/*/jest.config.js',
    '<rootDir>/apps/*/jest.config.js',
    '<rootDir>/tools/bench/jest.config.js',
    '<rootDir>/apps/edge/test/e2e/jest.config.js',
    '<rootDir>/apps/edge/test/e2e/own-stack/jest.config.js',
  ],
  // A failed test can leave a connection of its own open; the run still ends with its result instead of
  // waiting on it (the e2e stack is stopped by the global teardown either way).
  forceExit: true,
  // A spec that waits on a real Postgres, Redis, NATS or a child process gets more than jest's 5 s on a
  // machine the end-to-end stack keeps busy (the e2e project sets its own 30 s).
  testTimeout: 15_000,
};
