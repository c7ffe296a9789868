import { Readable } from 'node:stream';
import { ChatStreamAccumulator, parseChatStream, toPublicChunk } from './openai-stream.parser';

const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  model: 'up',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});

/** The SSE text cut into pieces at awkward places, as a network would. */
function split(text: string, size: number): Readable {
  const pieces: Buffer[] = [];
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return Readable.from(pieces);
}

describe('OpenAI chat stream parsing', () => {
  it('reassembles content, tool-call deltas and the final usage', async () => {
    const frames = [
      chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Oslo"}' } }] }),
      chunk({}, 'tool_calls'),
      { id: 'c1', object: 'chat.completion.chunk', model: 'up', choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } },
    ];
    const text = frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join('') + 'data: [DONE]\n\n';
    const accumulator = new ChatStreamAccumulator();
    for await (const parsed of parseChatStream(split(text, 7))) accumulator.push(parsed);
    expect(accumulator.result()).toEqual({
      content: '',
      toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
      finishReason: 'tool_calls',
      usage: { promptTokens: 9, completionTokens: 4, totalTokens: 13 },
      chunks: 5,
    });
  });

  it('joins text deltas and maps the model to the public id', async () => {
    const text = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hel' }), chunk({ content: 'lo' }), chunk({}, 'stop')]
      .map((frame) => `data: ${JSON.stringify(frame)}\n\n`)
      .join('');
    const accumulator = new ChatStreamAccumulator();
    for await (const parsed of parseChatStream(Readable.from([text]))) {
      expect(toPublicChunk(parsed, 'public').model).toBe('public');
      accumulator.push(parsed);
    }
    expect(accumulator.result()).toMatchObject({ content: 'Hello', finishReason: 'stop', usage: null });
  });

  it('turns an error event or a malformed chunk into an upstream_error', async () => {
    const consume = async (text: string) => {
      for await (const _ of parseChatStream(Readable.from([text]))) void _;
    };
    await expect(consume('data: {"error":{"message":"overloaded"}}\n\n')).rejects.toMatchObject({ code: 'upstream_error', message: 'overloaded' });
    await expect(consume('data: not json\n\n')).rejects.toMatchObject({ code: 'upstream_error' });
    await expect(consume('data: {"id":"x"}\n\n')).rejects.toMatchObject({ code: 'upstream_error' });
  });
});
