import { GatewayError, parseOrThrow } from '../../errors';
import { CountTokensRequest, MessagesRequest } from './messages-request.schema';

function failure(input: unknown): GatewayError {
  try {
    parseOrThrow(MessagesRequest, input);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected a failure');
}

const base = { model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };

describe('MessagesRequest', () => {
  it('accepts system blocks, tools, tool blocks and base64 images, keeping unnamed fields', () => {
    const body = parseOrThrow(MessagesRequest, {
      ...base,
      system: [{ type: 'text', text: 'be brief' }],
      tools: [{ name: 'get_weather', description: 'w', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      tool_choice: { type: 'tool', name: 'get_weather' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' }] },
      ],
      service_tier: 'auto',
    });
    expect(body.messages).toHaveLength(3);
    expect((body as Record<string, unknown>).service_tier).toBe('auto');
  });

  it('names a missing max_tokens', () => {
    const { max_tokens: _omit, ...rest } = base;
    const error = failure(rest);
    expect(error.param).toBe('max_tokens');
  });

  it('accepts an image by public HTTPS URL, as the vendor does', () => {
    const source = { type: 'url', url: 'https://example.com/a.png' };
    const parsed = parseOrThrow(MessagesRequest, { ...base, messages: [{ role: 'user', content: [{ type: 'image', source }] }] });
    expect(parsed.messages[0]!.content).toEqual([{ type: 'image', source }]);
  });

  it('refuses an image URL the URL policy refuses, naming source.url', () => {
    for (const url of [
      'http://example.com/a.png',
      'https://127.0.0.1/a.png',
      'https://169.254.169.254/latest/meta-data',
      'https://localhost/a.png',
      'file:///etc/passwd',
      'data:image/png;base64,iVBORw0KGgo=',
    ]) {
      const error = failure({ ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url } }] }] });
      expect(error.code).toBe('invalid_request');
      expect(error.param).toBe('messages[0].content[0].source.url');
    }
  });

  it('refuses an image source of another type at source.type', () => {
    const error = failure({ ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'f' } }] }] });
    expect(error.param).toBe('messages[0].content[0].source.type');
    expect(error.message).toContain('base64');
  });

  it('refuses an unknown block type and a system role', () => {
    expect(failure({ ...base, messages: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }] }).param).toBe('messages[0].content[0].type');
    expect(failure({ ...base, messages: [{ role: 'system', content: 'x' }] }).param).toBe('messages[0].role');
  });

  it('needs a name for a tool choice of type tool', () => {
    expect(failure({ ...base, tool_choice: { type: 'tool' } }).param).toBe('tool_choice.name');
  });

  it('counts tokens without max_tokens', () => {
    expect(parseOrThrow(CountTokensRequest, { model: 'm', messages: base.messages }).model).toBe('m');
  });
});
