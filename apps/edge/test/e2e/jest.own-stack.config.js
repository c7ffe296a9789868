// End-to-end specs that launch and kill a stack of their own (chaos): they need no shared stack, so they
// run in the jest process of the unit and integration specs, beside the e2e project.
const e2e = require('./jest.config.js');

const config = { ...e2e, displayName: 'e2e-own-stack', testRegex: require('./own-stack-specs'), testPathIgnorePatterns: ['/node_modules/'] };
for (const key of ['globalSetup', 'globalTeardown', 'testMatch']) delete config[key];
module.exports = config;
