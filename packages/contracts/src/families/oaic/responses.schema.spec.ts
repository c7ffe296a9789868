import { GatewayError, parseOrThrow } from '../../errors';
import { ModerationRequest } from './moderations.schema';
import { ResponseCreateRequest } from './responses.schema';

function failure(schema: typeof ResponseCreateRequest | typeof ModerationRequest, input: unknown): GatewayError {
  try {
    parseOrThrow(schema, input);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected the body to be refused');
}

const withPart = (part: Record<string, unknown>) => ({
  model: 'm',
  input: [{ role: 'user', content: [{ type: 'input_text', text: 'what is this?' }, part] }],
});

describe('ResponseCreateRequest URLs', () => {
  it('accepts public HTTPS and image data URLs', () => {
    expect(() => parseOrThrow(ResponseCreateRequest, withPart({ type: 'input_image', image_url: 'https://example.com/a.png' }))).not.toThrow();
    expect(() => parseOrThrow(ResponseCreateRequest, withPart({ type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' }))).not.toThrow();
    expect(() => parseOrThrow(ResponseCreateRequest, withPart({ type: 'input_image', file_id: 'file_1' }))).not.toThrow();
    expect(() => parseOrThrow(ResponseCreateRequest, withPart({ type: 'input_file', file_url: 'https://example.com/a.pdf' }))).not.toThrow();
  });

  it.each([
    ['http://127.0.0.1:8090/a.png', /http:\/\//],
    ['file:///etc/passwd', /local file paths/],
    ['javascript:alert(1)', /javascript: URLs/],
    ['https://169.254.169.254/latest/meta-data', /cloud metadata/],
  ])('refuses the input_image %s at its field', (url, reason) => {
    const error = failure(ResponseCreateRequest, withPart({ type: 'input_image', image_url: url }));
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe('input[0].content[1].image_url');
    expect(error.message).toMatch(reason);
  });

  it('refuses an input_file URL, an image in a tool output and an MCP server on an internal host', () => {
    expect(failure(ResponseCreateRequest, withPart({ type: 'input_file', file_url: 'https://10.0.0.1/a.pdf' })).param).toBe('input[0].content[1].file_url');
    const output = { model: 'm', input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_image', image_url: 'https://[::1]/a.png' }] }] };
    expect(failure(ResponseCreateRequest, output).param).toBe('input[0].output[0].image_url');
    const mcp = { model: 'm', input: 'hi', tools: [{ type: 'mcp', server_label: 'x', server_url: 'https://metadata.google.internal/' }] };
    expect(failure(ResponseCreateRequest, mcp).param).toBe('tools[0].server_url');
  });

  it('refuses an input_image whose image_url is not a string', () => {
    expect(failure(ResponseCreateRequest, withPart({ type: 'input_image', image_url: { url: 'https://127.0.0.1/' } })).param).toBe(
      'input[0].content[1].image_url',
    );
  });
});

describe('ModerationRequest URLs', () => {
  it('checks image items', () => {
    const body = (url: string) => ({
      input: [
        { type: 'text', text: 'hi' },
        { type: 'image_url', image_url: { url } },
      ],
    });
    expect(() => parseOrThrow(ModerationRequest, body('https://example.com/a.png'))).not.toThrow();
    const error = failure(ModerationRequest, body('https://0x7f000001/a.png'));
    expect(error.param).toBe('input[1].image_url.url');
    expect(error.message).toMatch(/loopback address \(127\.0\.0\.1\)/);
  });
});
