// testTimeout is a global jest option (ignored per project when the root config runs every project), so the
// e2e project sets its own: calls go through several processes of a stack that shares the machine.
jest.setTimeout(30_000);
