import { chatChunks, chatCompletionBody, planChat } from './chat.builder';
import { ChatRequest } from './openai.schemas';

const meta = { id: 'chatcmpl-1', created: 1, model: 'sandbox-gpt' };
const request = (body: Record<string, unknown>) => ChatRequest.parse({ model: 'sandbox-gpt', ...body });
const weatherTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

function joinedContent(chunks: Record<string, unknown>[]): string {
  return chunks.flatMap((chunk) => (chunk.choices as { delta: { content?: string | null } }[]).map((choice) => choice.delta.content ?? '')).join('');
}

describe('chat builder', () => {
  it('echoes the last user text with token usage', () => {
    const plan = planChat(
      request({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello there!' },
        ],
      }),
    );
    const body = chatCompletionBody(plan, meta) as { choices: { message: { content: string }; finish_reason: string }[]; usage: Record<string, number> };
    expect(body.choices[0]!.message.content).toBe('You said: Hello there!');
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(body.usage).toEqual({ prompt_tokens: 3 + 3 + 3 + 3, completion_tokens: 6, total_tokens: 18 });
  });

  it('reads text blocks and counts other blocks as attachments', () => {
    const plan = planChat(
      request({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'https://x/y.png' } },
            ],
          },
        ],
      }),
    );
    expect(plan.kind === 'text' && plan.text).toBe('You said: What is this? (with 1 attachment)');
  });

  it('stops at max_tokens with finish_reason length', () => {
    const plan = planChat(request({ max_tokens: 3, messages: [{ role: 'user', content: 'one two three' }] }));
    expect(plan).toMatchObject({ kind: 'text', text: 'You said:', finishReason: 'length', usage: { completion_tokens: 3 } });
  });

  it('streams the same text, then a usage chunk when asked', () => {
    const plan = planChat(request({ messages: [{ role: 'user', content: 'stream me, please' }] }));
    const chunks = chatChunks(plan, meta, true);
    expect(joinedContent(chunks)).toBe('You said: stream me, please');
    const last = chunks[chunks.length - 1] as { choices: unknown[]; usage: unknown };
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual(plan.usage);
    expect(chatChunks(plan, meta, false).some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('calls the first tool with arguments named after its first parameter', () => {
    const plan = planChat(request({ tools: [weatherTool], messages: [{ role: 'user', content: 'Paris' }] }));
    expect(plan.kind).toBe('tool');
    const body = chatCompletionBody(plan, meta) as {
      choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] }; finish_reason: string }[];
    };
    expect(body.choices[0]!.finish_reason).toBe('tool_calls');
    expect(body.choices[0]!.message.tool_calls[0]!.function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
  });

  it('streams tool-call arguments across several chunks', () => {
    const plan = planChat(request({ tools: [weatherTool], messages: [{ role: 'user', content: 'Paris' }] }));
    const deltas = chatChunks(plan, meta, false).flatMap(
      (chunk) => (chunk.choices as { delta: { tool_calls?: { function: { arguments?: string } }[] } }[])[0]!.delta.tool_calls ?? [],
    );
    const pieces = deltas.map((delta) => delta.function.arguments ?? '').filter(Boolean);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('{"city":"Paris"}');
  });

  it('answers with the tool result after a tool message, and honours tool_choice none', () => {
    const messages = [
      { role: 'user', content: 'Paris' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '21 degrees' },
    ];
    const plan = planChat(request({ tools: [weatherTool], messages }));
    expect(plan.kind === 'text' && plan.text).toBe('The get_weather tool returned: 21 degrees');
    expect(planChat(request({ tools: [weatherTool], tool_choice: 'none', messages: [messages[0]] })).kind).toBe('text');
  });
});
