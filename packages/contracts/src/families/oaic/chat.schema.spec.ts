import { GatewayError, parseOrThrow } from '../../errors';
import { ChatCompletionRequest } from './chat.schema';
import { urlProblem } from '../../url-policy/url-policy';

const image = (url: string) => ({
  model: 'm',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url } },
      ],
    },
  ],
});

function failure(input: unknown): GatewayError {
  try {
    parseOrThrow(ChatCompletionRequest, input);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected the body to be refused');
}

describe('ChatCompletionRequest', () => {
  it('keeps fields the spec does not name', () => {
    const body = parseOrThrow(ChatCompletionRequest, { model: 'm', messages: [{ role: 'user', content: 'hi' }], seed: 7, logprobs: true });
    expect(body).toMatchObject({ seed: 7, logprobs: true });
  });

  it('accepts a tool round trip', () => {
    const body = parseOrThrow(ChatCompletionRequest, {
      model: 'm',
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
      tools: [{ type: 'function', function: { name: 'w', parameters: {} } }],
      tool_choice: 'auto',
    });
    expect(body.messages).toHaveLength(3);
  });

  it('accepts HTTPS and data URLs', () => {
    expect(() => parseOrThrow(ChatCompletionRequest, image('https://example.com/cat.png'))).not.toThrow();
    expect(() => parseOrThrow(ChatCompletionRequest, image('data:image/png;base64,iVBORw0KGgo='))).not.toThrow();
  });

  it.each([
    ['bare base64', 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB', /bare base64/],
    ['a local path', '/home/me/cat.png', /local file path/],
    ['a file URL', 'file:///tmp/cat.png', /local file path/],
    ['plain http', 'http://example.com/cat.png', /http:\/\//],
    ['a non-image data URL', 'data:text/plain;base64,aGk=', /data:image/],
    ['a loopback address', 'https://127.0.0.1/cat.png', /loopback address \(127\.0\.0\.1\)/],
    ['the metadata address in hex', 'https://0xa9fea9fe/latest/meta-data', /cloud metadata address \(169\.254\.169\.254\)/],
    ['an IPv6 loopback', 'https://[::1]/cat.png', /loopback address \(::1\)/],
  ])('refuses %s at the block', (_label, url, message) => {
    const error = failure(image(url));
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe('messages[0].content[1].image_url.url');
    expect(error.message).toMatch(message);
  });

  it('refuses a video block at its type', () => {
    const error = failure({ model: 'm', messages: [{ role: 'user', content: [{ type: 'video_url', video_url: { url: 'https://x/v.mp4' } }] }] });
    expect(error.param).toBe('messages[0].content[0].type');
  });

  it.each([
    [{ messages: [{ role: 'user', content: 'hi' }] }, 'model', /Missing required parameter/],
    [{ model: 'm' }, 'messages', /Missing required parameter/],
    [{ model: 'm', messages: 'hi' }, 'messages', /expected array/],
    [{ model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 'hot' }, 'temperature', /expected number/],
    [{ model: 'm', messages: [{ role: 'robot', content: 'hi' }] }, 'messages[0].role', /Invalid value/],
    [{ model: 'm', messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id', /tool_call_id/],
  ])('names the field at fault in %j', (input, param, message) => {
    const error = failure(input);
    expect(error.param).toBe(param);
    expect(error.message).toMatch(message);
  });

  it('accepts a 10 MB data URL and still finds a bad character at its very end', () => {
    const data = 'A'.repeat(10 * 1024 * 1024);
    expect(urlProblem(`data:image/png;base64,${data}`, { data: 'image' })).toBeNull();
    expect(urlProblem(`data:image/png;base64,${data}!`, { data: 'image' })).not.toBeNull();
  });
});
