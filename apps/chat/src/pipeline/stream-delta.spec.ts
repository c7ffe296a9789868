import { deltaText, estimateTokens, isFinalEvent, publicModelRewriter } from './stream-delta';

describe('stream deltas', () => {
  it('reads the text a chat chunk adds, tool-call arguments included', () => {
    expect(deltaText('chat', { choices: [{ index: 0, delta: { content: ' world' } }] })).toBe(' world');
    expect(deltaText('chat', { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] } }] })).toBe('{"ci');
    expect(deltaText('chat', { choices: [], usage: { prompt_tokens: 1 } })).toBe('');
  });

  it('reads completions and responses deltas', () => {
    expect(deltaText('completions', { choices: [{ index: 0, text: 'abc' }] })).toBe('abc');
    expect(deltaText('responses', { type: 'response.output_text.delta', delta: 'xyz' })).toBe('xyz');
    expect(deltaText('responses', { type: 'response.created' })).toBe('');
  });

  it('knows when an answer is complete', () => {
    expect(isFinalEvent('chat', { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })).toBe(true);
    expect(isFinalEvent('chat', { choices: [{ index: 0, delta: { content: 'a' }, finish_reason: null }] })).toBe(false);
    expect(isFinalEvent('responses', { type: 'response.completed' })).toBe(true);
    expect(isFinalEvent('responses', { type: 'response.output_text.delta' })).toBe(false);
  });

  it('rewrites the upstream model name to the public id and leaves other text alone', () => {
    const rewrite = publicModelRewriter('sandbox-gpt@latency=20', 'sandbox-gpt-slow');
    expect(rewrite('{"id":"x","model":"sandbox-gpt@latency=20","choices":[]}')).toBe('{"id":"x","model":"sandbox-gpt-slow","choices":[]}');
    expect(rewrite('{"content":"sandbox-gpt@latency=20"}')).toBe('{"content":"sandbox-gpt@latency=20"}');
    const same = publicModelRewriter('m', 'm');
    expect(same('{"model":"m"}')).toBe('{"model":"m"}');
  });

  it('estimates tokens as words and punctuation marks', () => {
    expect(estimateTokens('You said: hello there')).toBe(5);
    expect(estimateTokens('')).toBe(0);
  });
});
