// The end-to-end suite: its global setup launches the whole stack (two edge replicas) once per run. The
// specs in own-stack/ launch stacks of their own (to kill their processes) and run as a project apart.
const preset = require('../../../../jest.preset');

const base = preset(__dirname);
// The Vercel AI SDK (`ai`, `@ai-sdk/*`) and some of what they import ship ES modules only; jest runs
// CommonJS here, so those files go through the same swc transform as the specs, compiled to CommonJS.
const ESM_ONLY = ['ai', '@ai-sdk', '@workflow/serde'];
const swc = base.transform['^.+\\.ts$'];

module.exports = preset(__dirname, {
  displayName: 'e2e',
  testMatch: ['<rootDir>/**/*.e2e.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/own-stack/'],
  transform: { '^.+\\.ts$': swc, [`node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: swc },
  // They import zod's locale by its ESM file name; the CommonJS build beside it keeps one zod in the process.
  moduleNameMapper: { '^zod/v4/locales/(.+)\\.js$': 'zod/v4/locales/$1.cjs' },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  globalSetup: '<rootDir>/global-setup.ts',
  globalTeardown: '<rootDir>/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/support/jest-timeout.ts'],
  testTimeout: 30000,
});
