// The URL policy on the translated request: whatever checked (or did not check) the body on its way in,
// a URL that reaches another protocol's fields is judged again before the upstream request is built.
import { GatewayError, type CatalogChannel, type ChatCompletionRequest } from '@gateway/contracts';
import { fromOaicRequest } from '@gateway/providers';
import type { ChatEnv } from '../config/chat-env';
import type { MeteredStream } from '../usage/metered-stream';
import type { ChatCall } from './chat-call';
import { createChatCall } from './chat-pipeline.service';
import { UpstreamCallService } from './upstream-call.service';

const channel = (protocol: CatalogChannel['protocol']): CatalogChannel => ({
  id: `ch-${protocol}`,
  providerId: 'p',
  protocol,
  baseUrl: 'https://upstream.example/v1',
  apiKey: 'secret',
  upstreamModel: 'up-model',
  priority: 0,
  weight: 1,
  nativeBatch: false,
  assistants: false,
});

function oaicCall(url: string): ChatCall {
  const body = {
    model: 'public',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'see' },
          { type: 'image_url', image_url: { url } },
        ],
      },
    ],
  };
  return createChatCall({
    family: 'oaic',
    caller: { tenantId: 't', keyKind: 'payg', requestId: 'r' } as ChatCall['caller'],
    modelId: 'public',
    channels: [],
    body,
    decode: () => fromOaicRequest(body as ChatCompletionRequest),
    stream: false,
    metered: {} as MeteredStream,
  });
}

describe('UpstreamCallService.request', () => {
  const service = new UpstreamCallService({ UPSTREAM_TIMEOUT_MS: 1000 } as ChatEnv);

  it('sends a public image URL on to a Gemini upstream as a fileUri', () => {
    const request = service.request(oaicCall('https://example.com/a.png'), channel('gemini'));
    expect(JSON.parse(request.body as string).contents[0].parts[1]).toEqual({ fileData: { mimeType: 'image/png', fileUri: 'https://example.com/a.png' } });
  });

  it.each(['https://100.100.100.200/latest/meta-data', 'https://0x7f000001/a.png', 'https://[::ffff:169.254.169.254]/'])(
    'refuses %s translated for a Gemini upstream, naming the client field',
    (url) => {
      let caught: unknown;
      try {
        service.request(oaicCall(url), channel('gemini'));
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(GatewayError);
      expect(caught).toMatchObject({ code: 'invalid_request', param: 'messages[0].content[1].image_url.url' });
    },
  );
});

describe('UpstreamCallService.upstreamError', () => {
  const service = new UpstreamCallService({ UPSTREAM_TIMEOUT_MS: 1000 } as ChatEnv);
  const refusal = JSON.stringify({
    error: { message: "'max_completion_tokens' must be at most 4096", type: 'invalid_request_error', param: 'max_completion_tokens' },
  });

  it("names the client's field, not the upstream's, when a translated request is refused", () => {
    const call = { ...oaicCall('https://example.com/a.png'), family: 'genc' } as ChatCall;
    const error = service.upstreamError(call, channel('openai'), 400, refusal);
    expect(error.param).toBe('generationConfig.maxOutputTokens');
    expect(error.message).toMatch(/^The upstream refused the request as translated/);
  });

  it("keeps the upstream's own words on a pass-through path, where its fields are the client's", () => {
    const error = service.upstreamError(oaicCall('https://example.com/a.png'), channel('openai'), 400, refusal);
    expect(error.param).toBe('max_completion_tokens');
    expect(error.message).toBe("'max_completion_tokens' must be at most 4096");
  });
});
