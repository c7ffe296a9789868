import { GatewayError } from '@gateway/contracts';
import { capChatOutput, type ChatShape } from './output-cap';
import { maxUsageOf } from './request-estimate';

function refusal(shape: ChatShape, body: Record<string, unknown>, limit = 100): GatewayError {
  try {
    capChatOutput(shape, body, limit);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('capChatOutput', () => {
  it("writes the model's limit where each family names its cap when the client gave none", () => {
    const chat: Record<string, unknown> = { messages: [] };
    capChatOutput('oaic-chat', chat, 100);
    expect(chat.max_completion_tokens).toBe(100);
    const completions: Record<string, unknown> = { prompt: 'x' };
    capChatOutput('oaic-completions', completions, 100);
    expect(completions.max_tokens).toBe(100);
    const responses: Record<string, unknown> = { input: 'x', max_output_tokens: null };
    capChatOutput('oaic-responses', responses, 100);
    expect(responses.max_output_tokens).toBe(100);
    const genc: Record<string, unknown> = { contents: [] };
    capChatOutput('genc', genc, 100);
    expect(genc.generationConfig).toEqual({ maxOutputTokens: 100 });
    const gencWithConfig: Record<string, unknown> = { contents: [], generationConfig: { temperature: 0.5 } };
    capChatOutput('genc', gencWithConfig, 100);
    expect(gencWithConfig.generationConfig).toEqual({ temperature: 0.5, maxOutputTokens: 100 });
  });

  it("keeps the client's cap at or under the limit, and the reservation is what goes upstream", () => {
    const chat: Record<string, unknown> = { messages: [], max_tokens: 40 };
    capChatOutput('oaic-chat', chat, 100);
    expect(chat).toEqual({ messages: [], max_tokens: 40 });
    const msgc: Record<string, unknown> = { messages: [], max_tokens: 100 };
    capChatOutput('msgc', msgc, 100);
    expect(msgc.max_tokens).toBe(100);
    const bare: Record<string, unknown> = { messages: [], n: 3 };
    capChatOutput('oaic-chat', bare, 100);
    expect(maxUsageOf('chat', bare, 100).outputTokens).toBe(300);
  });

  it('refuses a cap above the model limit with invalid_request naming the field, in each family', () => {
    const cases: Array<[ChatShape, Record<string, unknown>, string]> = [
      ['oaic-chat', { max_tokens: 101 }, 'max_tokens'],
      ['oaic-chat', { max_completion_tokens: 5000 }, 'max_completion_tokens'],
      ['oaic-chat', { max_completion_tokens: 50, max_tokens: 500 }, 'max_tokens'],
      ['oaic-completions', { max_tokens: 101 }, 'max_tokens'],
      ['oaic-responses', { max_output_tokens: 101 }, 'max_output_tokens'],
      ['msgc', { max_tokens: 101 }, 'max_tokens'],
      ['genc', { generationConfig: { maxOutputTokens: 101 } }, 'generationConfig.maxOutputTokens'],
    ];
    for (const [shape, body, field] of cases) {
      const error = refusal(shape, body);
      expect(error.code).toBe('invalid_request');
      expect(error.param).toBe(field);
      expect(error.message).toContain(field);
      expect(error.message).toContain('100');
    }
  });

  it('refuses answer counts the vendors do not allow, naming the field', () => {
    expect(refusal('oaic-chat', { n: 129 }).param).toBe('n');
    expect(refusal('oaic-chat', { n: 0 }).param).toBe('n');
    expect(refusal('oaic-chat', { n: 2.5 }).param).toBe('n');
    expect(refusal('oaic-chat', { n: '3' }).message).toContain('n must be');
    expect(refusal('oaic-completions', { best_of: 21 }).param).toBe('best_of');
    expect(refusal('genc', { generationConfig: { candidateCount: 9 } }).param).toBe('generationConfig.candidateCount');
    expect(() => capChatOutput('oaic-chat', { n: 128 }, 100)).not.toThrow();
  });

  it('refuses a cap that is not a positive integer, and a generationConfig that is not an object', () => {
    expect(refusal('oaic-chat', { max_tokens: 'lots' }).param).toBe('max_tokens');
    expect(refusal('genc', { generationConfig: 'x' }).param).toBe('generationConfig');
  });
});
