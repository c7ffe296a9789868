import { TASK_FAILURE_MESSAGES, upstreamFailureMessage } from './task-failure';

describe('what a failed media task tells its tenant', () => {
  it('keeps an upstream message on one bounded line without control characters', () => {
    expect(upstreamFailureMessage('content\u0000 policy\n\tviolation')).toBe('content policy violation');
    expect(upstreamFailureMessage('x'.repeat(2000))).toHaveLength(500);
    expect(upstreamFailureMessage(' \n ')).toBe('The upstream reported the task failed.');
  });

  it('words the gateway’s own failures without internals', () => {
    for (const message of Object.values(TASK_FAILURE_MESSAGES)) expect(message).not.toMatch(/\/|prisma|ENOENT|at .+:\d+/i);
  });
});
