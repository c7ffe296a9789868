// Converse read as the Messages request it stands for, and a plan rendered as Converse events.
import { planMessage } from '../anthropic/messages.builder';
import { asMessagesRequest, converseBody, converseEvents } from './converse.builder';
import { ConverseRequest } from './converse.schema';

const request = (body: unknown) => ConverseRequest.parse(body);

describe('asMessagesRequest', () => {
  it('turns cache points into breakpoints on what they close, and keeps the rest of the call', () => {
    const messages = asMessagesRequest(
      'anthropic.claude-v1:0',
      request({
        system: [{ text: 'Be brief.' }, { cachePoint: { type: 'default' } }],
        messages: [{ role: 'user', content: [{ text: 'Paris' }, { cachePoint: { type: 'default', ttl: '1h' } }] }],
        toolConfig: {
          tools: [
            { toolSpec: { name: 'get_weather', inputSchema: { json: { properties: { city: { type: 'string' } } } } } },
            { cachePoint: { type: 'default' } },
          ],
          toolChoice: { tool: { name: 'get_weather' } },
        },
        inferenceConfig: { maxTokens: 2048, stopSequences: ['END'] },
        additionalModelRequestFields: { reasoning_config: { type: 'enabled', budget_tokens: 1024 } },
      }),
    );
    expect(messages).toEqual({
      model: 'anthropic.claude-v1:0',
      max_tokens: 2048,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Paris', cache_control: { type: 'ephemeral' } }] }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } }, cache_control: { type: 'ephemeral' } }],
      tool_choice: { type: 'tool', name: 'get_weather' },
      thinking: { type: 'enabled', budget_tokens: 1024 },
      stop_sequences: ['END'],
    });
  });

  it('refuses a block with two members set, and a conversation that does not alternate', () => {
    expect(ConverseRequest.safeParse({ messages: [{ role: 'user', content: [{ text: 'a', cachePoint: { type: 'default' } }] }] }).success).toBe(false);
    const turns = ConverseRequest.safeParse({
      messages: [
        { role: 'user', content: [{ text: 'a' }] },
        { role: 'user', content: [{ text: 'b' }] },
      ],
    });
    expect(turns.success ? [] : turns.error.issues.map((issue) => issue.path.join('.'))).toEqual(['messages.1.role']);
  });
});

describe('converseEvents', () => {
  it('streams a tool call as a start, its input in pieces, a stop, then messageStop and metadata', () => {
    const plan = planMessage(
      asMessagesRequest(
        'anthropic.claude-v1:0',
        request({
          messages: [{ role: 'user', content: [{ text: 'Paris' }] }],
          toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { properties: { city: { type: 'string' } } } } } }] },
        }),
      ),
    );
    const answer = { plan, stopReason: 'tool_use' as const, latencyMs: 3 };
    const events = converseEvents(answer);
    expect(events.map((event) => event.event)).toEqual([
      'messageStart',
      'contentBlockStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
    ]);
    const input = events.flatMap((event) => {
      const delta = (event.payload.delta as { toolUse?: { input: string } } | undefined)?.toolUse;
      return delta ? [delta.input] : [];
    });
    const whole = converseBody(answer) as { output: { message: { content: { toolUse: { input: unknown } }[] } } };
    expect(JSON.parse(input.join(''))).toEqual(whole.output.message.content[0]!.toolUse.input);
  });
});
