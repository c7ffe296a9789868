import { ResponseRequest } from './openai.schemas';
import { planResponse, responseBody, responseEvents } from './responses.builder';

const meta = { id: 'resp_1', messageId: 'msg_1', createdAt: 9, model: 'm' };
const weather = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false };

describe('responses builder', () => {
  it('answers as OpenAI does: sampling settings in effect, logprobs on text parts, no usage while in progress', () => {
    const request = ResponseRequest.parse({ model: 'm', input: 'hello', top_p: 0.5 });
    const plan = planResponse(request);
    const whole = responseBody(plan, meta, request);
    expect(whole).toMatchObject({
      temperature: 1,
      top_p: 0.5,
      output: [{ type: 'message', content: [{ type: 'output_text', text: 'You said: hello', annotations: [], logprobs: [] }] }],
    });
    expect(whole['usage']).toMatchObject({ input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 } });
    expect(responseBody(plan, meta, request, false)).not.toHaveProperty('usage');
    for (const { event, data } of responseEvents(plan, meta, request)) if (event.startsWith('response.output_text.')) expect(data['logprobs']).toEqual([]);
  });

  it('calls the offered function when the last item is the user turn, whole and streamed', () => {
    const request = ResponseRequest.parse({ model: 'm', input: 'Oslo', tools: [weather] });
    const plan = planResponse(request);
    expect(responseBody(plan, meta, request)).toMatchObject({
      output: [{ type: 'function_call', status: 'completed', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
      tools: [weather],
    });
    const events = responseEvents(plan, meta, request);
    expect(events.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[4]!.data).toMatchObject({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
  });

  it('answers in text after a function call output, and when tool_choice is none', () => {
    const after = ResponseRequest.parse({
      model: 'm',
      tools: [weather],
      input: [
        { role: 'user', content: 'Oslo' },
        { type: 'function_call_output', call_id: 'call_1', output: '3' },
      ],
    });
    expect(planResponse(after).call).toBeNull();
    expect(planResponse(ResponseRequest.parse({ model: 'm', input: 'Oslo', tools: [weather], tool_choice: 'none' })).call).toBeNull();
  });
});
