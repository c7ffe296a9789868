import { GatewayError } from '@gateway/contracts';
import { capRunOutput, capRunPrompt, isTerminalRun } from './run-billing';
import { storedSizeOf } from './stored-size';

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

  it("sends a run without a prompt cap with its thread's and assistant's stored size plus its own body, at least OpenAI's least", () => {
    const stored = storedSizeOf(['word '.repeat(10_000)]);
    const body: Record<string, unknown> = { additional_messages: [{ role: 'user', content: 'x'.repeat(2_000) }], additional_instructions: 'y'.repeat(1_000) };
    capRunPrompt(body, stored);
    expect(body.max_prompt_tokens).toBeGreaterThanOrEqual(Number(stored.tokens) + 1_000 + 500);
    expect(body.max_prompt_tokens).toBeLessThan(Number(stored.tokens) + 2_000);
    const small: Record<string, unknown> = {};
    capRunPrompt(small, storedSizeOf(['hi']));
    expect(small.max_prompt_tokens).toBe(256);
    const given: Record<string, unknown> = { max_prompt_tokens: 300 };
    capRunPrompt(given, stored);
    expect(given.max_prompt_tokens).toBe(300);
  });

  it('knows the statuses a run changes no more from', () => {
    expect(['completed', 'failed', 'cancelled', 'expired', 'incomplete'].every(isTerminalRun)).toBe(true);
    expect(['queued', 'in_progress', 'requires_action', 'cancelling'].some(isTerminalRun)).toBe(false);
  });
});
