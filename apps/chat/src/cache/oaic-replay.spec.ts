import { completionAsChat, replayOf, responseAsChat } from './oaic-replay';

const usage = { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 };
const completion = {
  id: 'cmpl-1',
  object: 'text_completion',
  created: 7,
  model: 'm',
  choices: [{ index: 0, text: 'Hi there', logprobs: null, finish_reason: 'stop' }],
  usage,
};
const response = {
  id: 'resp_1',
  object: 'response',
  created_at: 7,
  model: 'm',
  status: 'completed',
  output: [
    { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi there', annotations: [] }] },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{"q":1}', status: 'completed' },
  ],
  usage: { input_tokens: 4, output_tokens: 2, total_tokens: 6 },
};

const dataOf = (sse: string) =>
  sse
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);

describe('replaying stored oaic completions and responses as streams', () => {
  it('reads a one-choice completion as chat, and none with several choices or log probabilities', () => {
    expect(completionAsChat(completion)).toMatchObject({ choices: [{ message: { content: 'Hi there' }, finish_reason: 'stop' }], usage });
    expect(completionAsChat({ ...completion, choices: [completion.choices[0], completion.choices[0]] })).toBeNull();
    expect(completionAsChat({ ...completion, choices: [{ ...completion.choices[0], logprobs: { tokens: [] } }] })).toBeNull();
  });

  it('replays a completion as completion chunks spelling its text, its usage and the end marker', () => {
    const sse = replayOf('oaic.completions', completion, 'm', {})!;
    const chunks = dataOf(sse);
    expect(chunks.every((chunk) => chunk.object === 'text_completion')).toBe(true);
    expect(chunks.map((chunk) => (chunk.choices as { text?: string }[])[0]?.text ?? '').join('')).toBe('Hi there');
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 2 });
    expect(sse.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('reads a response of text and function calls as chat, and none with other items', () => {
    expect(responseAsChat(response)).toMatchObject({
      choices: [
        { message: { content: 'Hi there', tool_calls: [{ id: 'call_1', function: { name: 'lookup', arguments: '{"q":1}' } }] }, finish_reason: 'tool_calls' },
      ],
      usage,
    });
    expect(responseAsChat({ ...response, output: [{ type: 'web_search_call', id: 'ws_1' }] })).toBeNull();
  });

  it('replays a response as its typed events under the same id, ending with the whole response', () => {
    const events = dataOf(replayOf('oaic.responses', response, 'm', { model: 'm', input: 'hi' })!);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    const deltas = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta);
    expect(deltas.join('')).toBe('Hi there');
    expect(events.at(-1)?.response).toMatchObject({ id: 'resp_1', status: 'completed', usage: { input_tokens: 4, output_tokens: 2 } });
    expect(JSON.stringify(events.at(-1)?.response)).toContain('"call_id":"call_1"');
  });
});
