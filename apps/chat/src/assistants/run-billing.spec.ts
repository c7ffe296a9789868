import { GatewayError } from '@gateway/contracts';
import { capRunOutput, isTerminalRun } from './run-billing';

describe('run billing rules', () => {
  it("sends a run without an output cap with the model's, and keeps one within it", () => {
    const open: { max_completion_tokens?: number | null } = {};
    capRunOutput(open, 512);
    expect(open.max_completion_tokens).toBe(512);
    const given = { max_completion_tokens: 100 };
    capRunOutput(given, 512);
    expect(given.max_completion_tokens).toBe(100);
    const nulled = { max_completion_tokens: null };
    capRunOutput(nulled, 512);
    expect(nulled.max_completion_tokens).toBe(512);
  });

  it('refuses a cap above the model limit, naming the field', () => {
    const error = (() => {
      try {
        capRunOutput({ max_completion_tokens: 513 }, 512);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'invalid_request', param: 'max_completion_tokens', message: expect.stringContaining('512') });
  });

  it('knows the statuses a run changes no more from', () => {
    expect(['completed', 'failed', 'cancelled', 'expired', 'incomplete'].every(isTerminalRun)).toBe(true);
    expect(['queued', 'in_progress', 'requires_action', 'cancelling'].some(isTerminalRun)).toBe(false);
  });
});
