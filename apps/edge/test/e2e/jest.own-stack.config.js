// The end-to-end specs that launch and kill a stack of their own (crashes, drains, chaos): they need no
// shared stack, so they run as a jest process of their own beside the e2e project and the rest.
const e2e = require('./jest.config.js');

const config = { ...e2e, displayName: 'e2e-own-stack', testRegex: require('./own-stack-specs'), testPathIgnorePatterns: ['/node_modules/'] };
for (const key of ['globalSetup', 'globalTeardown', 'testMatch']) delete config[key];
module.exports = config;
