import { GatewayError, type ResponseCreateRequest } from '@gateway/contracts';
import { chatAnswerAsResponse, ChatStreamAsResponseEvents, responseAsChatRequest, type ResponseOrigin } from './oaic-responses.bridge';

const origin = (request: Partial<ResponseCreateRequest> = {}): ResponseOrigin => ({
  id: 'resp_1',
  createdAt: 9,
  model: 'm',
  request: { model: 'm', input: 'x', ...request },
});
const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  frame({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
const usageChunk = frame({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
});

function events(sse: string): Array<{ event: string; data: Record<string, unknown> }> {
  return sse
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) as Record<string, unknown> };
    });
}

describe('responses answered through chat', () => {
  it('turns instructions, input items, function calls and their outputs into chat messages', () => {
    const chat = responseAsChatRequest({
      model: 'm',
      instructions: 'Be brief.',
      max_output_tokens: 30,
      temperature: 0.5,
      input: [
        { role: 'developer', content: 'Use tools.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Weather?' },
            { type: 'input_image', image_url: 'https://img.example/a.png' },
          ],
        },
        { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"c":3}' },
      ],
      tools: [{ type: 'function', name: 'weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      tool_choice: { type: 'function', name: 'weather' },
      stream: true,
    } as ResponseCreateRequest);
    expect(chat).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'system', content: 'Use tools.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image_url', image_url: { url: 'https://img.example/a.png' } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"c":3}' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 30,
      temperature: 0.5,
      tools: [
        {
          type: 'function',
          function: { name: 'weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
    });
  });

  it('carries text.format as response_format and reasoning.effort as reasoning_effort', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const body = { model: 'm', input: 'hi', text: { format: { type: 'json_schema', name: 'thing', schema, strict: true } }, reasoning: { effort: 'high' } };
    const chat = responseAsChatRequest(body as ResponseCreateRequest);
    expect(chat.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'thing', schema, strict: true } });
    expect(chat.reasoning_effort).toBe('high');
    expect(responseAsChatRequest({ model: 'm', input: 'hi', text: { format: { type: 'json_object' } } }).response_format).toEqual({ type: 'json_object' });
  });

  it('refuses what chat cannot carry, naming the field', () => {
    const refusal = (body: Record<string, unknown>) => {
      try {
        responseAsChatRequest({ model: 'm', input: 'x', ...body } as ResponseCreateRequest);
      } catch (error) {
        return error as GatewayError;
      }
      throw new Error('not refused');
    };
    expect(refusal({ previous_response_id: 'resp_0' })).toMatchObject({ code: 'invalid_request', param: 'previous_response_id' });
    expect(refusal({ tools: [{ type: 'web_search' }] })).toMatchObject({ param: 'tools[0]' });
    expect(refusal({ input: [{ type: 'reasoning', summary: [] }] })).toMatchObject({ param: 'input[0]' });
    expect(refusal({ input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] })).toMatchObject({ param: 'input[0].content[0]' });
    expect(refusal({ text: { format: { type: 'json_schema', schema: {} } } })).toMatchObject({ param: 'text.format.name' });
    expect(refusal({ tools: [{ type: 'web_search' }] }).message).toContain("needs an upstream with a responses endpoint, and the model 'm' has none");
  });

  it('answers a chat.completion as a completed response, tool calls as function_call items', () => {
    const response = chatAnswerAsResponse(
      {
        id: 'chatcmpl-1',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Checking.',
              tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'weather', arguments: '{}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
      },
      origin(),
    );
    expect(response).toMatchObject({ id: 'resp_1', object: 'response', created_at: 9, status: 'completed', model: 'm', output_text: 'Checking.' });
    expect(response.output).toEqual([
      expect.objectContaining({
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Checking.', annotations: [], logprobs: [] }],
      }),
      expect.objectContaining({ type: 'function_call', call_id: 'call_9', name: 'weather', arguments: '{}', status: 'completed' }),
    ]);
    expect(response.usage).toEqual({
      input_tokens: 4,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 2,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 6,
    });
  });

  it('marks an answer cut by max tokens incomplete', () => {
    const response = chatAnswerAsResponse({ choices: [{ message: { content: 'Lon' }, finish_reason: 'length' }] }, origin({ max_output_tokens: 1 }));
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });

  it('streams text as the typed event sequence, ending with the whole response', () => {
    const stream =
      chunk({ role: 'assistant', content: '' }) + chunk({ content: 'Hel' }) + chunk({ content: 'lo' }) + chunk({}, 'stop') + usageChunk + 'data: [DONE]\n\n';
    const rewrite = new ChatStreamAsResponseEvents(origin());
    let out = '';
    for (let i = 0; i < stream.length; i += 5) out += rewrite.push(stream.slice(i, i + 5));
    const seen = events(out);
    expect(seen.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(seen.map((e) => e.data.sequence_number)).toEqual(seen.map((_, i) => i));
    expect(seen.every((e) => e.data.type === e.event)).toBe(true);
    // OpenAI's schema: no null usage while in progress, and text events carry logprobs.
    expect(seen[0]!.data.response).not.toHaveProperty('usage');
    for (const e of seen.filter((e) => e.event.startsWith('response.output_text.'))) expect(e.data.logprobs).toEqual([]);
    const completed = seen.at(-1)!.data.response as Record<string, unknown>;
    expect(completed).toMatchObject({
      id: 'resp_1',
      status: 'completed',
      output_text: 'Hello',
      usage: expect.objectContaining({ input_tokens: 4, output_tokens: 2 }),
    });
    expect(rewrite.final).toEqual(completed);
  });

  it('answers shown reasoning as a reasoning item ahead of the message, whole and streamed, with its token count', () => {
    const chat = {
      choices: [{ message: { role: 'assistant', content: 'Hi', reasoning_content: 'Think first.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 4, completion_tokens: 9, completion_tokens_details: { reasoning_tokens: 3 } },
    };
    const whole = chatAnswerAsResponse(chat, origin()) as { output: Array<Record<string, unknown>>; usage: Record<string, unknown> };
    expect(whole.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(whole.output[0]!.summary).toEqual([{ type: 'summary_text', text: 'Think first.' }]);
    expect(whole.usage.output_tokens_details).toEqual({ reasoning_tokens: 3 });

    const stream =
      chunk({ reasoning_content: 'Think ' }) + chunk({ reasoning_content: 'first.' }) + chunk({ content: 'Hi' }) + chunk({}, 'stop') + 'data: [DONE]\n\n';
    const rewrite = new ChatStreamAsResponseEvents(origin());
    const seen = events(rewrite.push(stream));
    expect(seen.map((e) => e.event).slice(2, 7)).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.output_item.done',
    ]);
    const completed = seen.at(-1)!.data.response as { output: Array<Record<string, unknown>> };
    expect(completed.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
  });

  it('streams a tool call as a function_call item with argument deltas', () => {
    const stream =
      chunk({ role: 'assistant', content: null }) +
      chunk({ tool_calls: [{ index: 0, id: 'call_5', type: 'function', function: { name: 'weather', arguments: '' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }) +
      chunk({}, 'tool_calls') +
      'data: [DONE]\n\n';
    const rewrite = new ChatStreamAsResponseEvents(origin());
    const seen = events(rewrite.push(stream));
    expect(seen.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(seen[5]!.data).toMatchObject({ name: 'weather', arguments: '{"city":"Oslo"}' });
    expect(rewrite.final!.output as unknown[]).toEqual([
      expect.objectContaining({ type: 'function_call', call_id: 'call_5', name: 'weather', arguments: '{"city":"Oslo"}' }),
    ]);
  });
});
