import { GatewayError, MessagesRequest } from '@gateway/contracts';
import { messageBody, messageEvents, planMessage } from './messages.builder';

const meta = { id: 'msg_1', model: 'sandbox-claude' };
const request = (body: Record<string, unknown>) => MessagesRequest.parse({ model: 'sandbox-claude', max_tokens: 4096, ...body });

describe('messages builder', () => {
  it('answers an output format with an instance of its schema', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name', 'age'] };
    const plan = planMessage(request({ messages: [{ role: 'user', content: 'Ada' }], output_format: { type: 'json_schema', schema } }));
    expect(plan.kind === 'text' && JSON.parse(plan.text)).toEqual({ name: 'Ada', age: 0 });
  });

  it('calls a tool with arguments valid against its input schema', () => {
    const input_schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city', 'days'] };
    const plan = planMessage(request({ messages: [{ role: 'user', content: 'Oslo' }], tools: [{ name: 'forecast', input_schema }] }));
    expect(plan.kind === 'tool' && plan.call.input).toEqual({ city: 'Oslo', days: 1 });
  });

  it('thinks first when asked, with a signature that a later turn must send back unaltered', () => {
    const ask = { role: 'user', content: 'Tea?' };
    const plan = planMessage(request({ messages: [ask], thinking: { type: 'enabled', budget_tokens: 1024 } }));
    const body = messageBody(plan, meta) as { content: Array<Record<string, string>>; usage: { output_tokens: number } };
    expect(body.content[0]).toEqual({ type: 'thinking', thinking: plan.thought!.text, signature: plan.thought!.signature });
    expect(body.usage.output_tokens).toBe(plan.thought!.tokens + 5); // 'You said: Tea?'
    expect(messageEvents(plan, meta).map((e) => e.data.delta && (e.data.delta as { type: string }).type)).toContain('signature_delta');
    const next = (thinking: string) =>
      request({
        messages: [
          ask,
          { role: 'assistant', content: [{ type: 'thinking', thinking, signature: plan.thought!.signature }, body.content[1]] },
          { role: 'user', content: 'More?' },
        ],
      });
    expect(() => planMessage(next(plan.thought!.text))).not.toThrow();
    expect(() => planMessage(next('altered'))).toThrow(GatewayError);
  });

  it('writes a cache_control prefix on first sight and reads it after', () => {
    const system = [{ type: 'text', text: `Manual ${Math.random()} `.repeat(30), cache_control: { type: 'ephemeral' } }];
    const first = planMessage(request({ system, messages: [{ role: 'user', content: 'one' }] })).usage;
    const second = planMessage(request({ system, messages: [{ role: 'user', content: 'two' }] })).usage;
    expect(first.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(first.cache_read_input_tokens).toBe(0);
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.input_tokens).toBe(first.input_tokens);
  });
});
