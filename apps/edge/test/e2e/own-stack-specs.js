// The end-to-end specs that run a stack of their own in the unit and integration specs' jest process, which
// would otherwise end minutes before the e2e project; the e2e project leaves them to e2e-own-stack.
module.exports = ['money-chaos'].map((name) => `/${name}\\.e2e\\.spec\\.ts$`);
