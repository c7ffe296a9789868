// The end-to-end specs that launch (and kill) a stack of their own; the e2e project leaves them to e2e-own-stack.
module.exports = ['billing-crash', 'money-chaos', 'operations', 'task-worker-crash'].map((name) => `/${name}\\.e2e\\.spec\\.ts$`);
