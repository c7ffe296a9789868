import { GatewayError } from '@gateway/contracts';
import { chatAnswerAsCompletion, ChatStreamAsCompletions, completionAsChatRequest } from './oaic-completions.bridge';

describe('completions answered through chat', () => {
  it('sends the prompt as one user message and carries the sampling fields', () => {
    expect(completionAsChatRequest({ model: 'm', prompt: 'Say hi', max_tokens: 5, temperature: 0.2, stop: ['\n'], stream: true, user: 'u' })).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'Say hi' }],
      stream: true,
      max_tokens: 5,
      temperature: 0.2,
      stop: ['\n'],
      user: 'u',
    });
    expect(completionAsChatRequest({ model: 'm', prompt: ['only one'] }).messages).toEqual([{ role: 'user', content: 'only one' }]);
  });

  it('refuses what chat cannot answer, naming the field', () => {
    const refusal = (body: Record<string, unknown>) => {
      try {
        completionAsChatRequest({ model: 'm', prompt: 'x', ...body });
      } catch (error) {
        return error as GatewayError;
      }
      throw new Error('not refused');
    };
    expect(refusal({ prompt: ['a', 'b'] })).toMatchObject({ code: 'invalid_request', param: 'prompt' });
    for (const [field, value] of [
      ['suffix', '!'],
      ['echo', true],
      ['logprobs', 2],
      ['best_of', 3],
      ['n', 2],
    ] as const) {
      const error = refusal({ [field]: value });
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ code: 'invalid_request', param: field });
      expect(error.message).toContain(`'${field}' needs an upstream with a completions endpoint`);
    }
    // Defaults that change nothing are not refusals.
    expect(() => completionAsChatRequest({ model: 'm', prompt: 'x', n: 1, echo: false, logprobs: null } as never)).not.toThrow();
  });

  it('answers a chat.completion as a text_completion', () => {
    const chat = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 7,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
    };
    expect(chatAnswerAsCompletion(chat)).toEqual({
      id: 'cmpl-1',
      object: 'text_completion',
      created: 7,
      model: 'm',
      choices: [{ text: 'Hello', index: 0, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
    });
    expect(chatAnswerAsCompletion({ ...chat, id: 'a1b2' }).id).toBe('cmpl-a1b2');
  });

  it('rewrites a chunk stream split anywhere, dropping the role-only opening chunk', () => {
    const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const stream =
      frame(chunk({ role: 'assistant', content: '' })) +
      frame(chunk({ content: 'Hel' })) +
      frame(chunk({ content: 'lo' })) +
      frame(chunk({}, 'stop')) +
      frame({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [],
        usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
      }) +
      'data: [DONE]\n\n';
    const rewrite = new ChatStreamAsCompletions();
    let out = '';
    for (let i = 0; i < stream.length; i += 7) out += rewrite.push(stream.slice(i, i + 7));
    const events = out.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const objects = events
      .slice(0, -1)
      .map((e) => JSON.parse(e.slice('data: '.length)) as { object: string; choices: Array<{ text: string; finish_reason: string | null }>; usage?: unknown });
    expect(objects.every((o) => o.object === 'text_completion')).toBe(true);
    expect(objects.every((o) => (o as { id?: string }).id === 'cmpl-c')).toBe(true);
    expect(objects.flatMap((o) => o.choices.map((c) => c.text)).join('')).toBe('Hello');
    expect(objects.flatMap((o) => o.choices.map((c) => c.finish_reason)).filter(Boolean)).toEqual(['stop']);
    expect(objects.at(-1)!.usage).toEqual({ prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 });
    expect(objects).toHaveLength(4);
  });

  it('passes an error event through', () => {
    const error = { error: { message: 'upstream broke', type: 'api_error', param: null, code: 'upstream_error' } };
    expect(new ChatStreamAsCompletions().push(`data: ${JSON.stringify(error)}\n\n`)).toBe(`data: ${JSON.stringify(error)}\n\n`);
  });
});
