import { channel, oaicToolRequest } from '../../../test/fixtures/chat-fixtures';
import { ChatCompletionRequest, parseOrThrow } from '@gateway/contracts';
import { fromOaicRequest } from '../../families/oaic/oaic-request.decoder';
import type { ChannelTarget } from '../../provider.types';
import { toOpenaiRequest } from '../openai/openai-chat-request.transform';
import { azureOpenaiChat } from './azure-openai-chat.codec';
import { fromAzureError } from './azure-openai-error.map';
import { toAzureUpstream } from './azure-openai.request';

const azure = (settings: Record<string, unknown>, apiKey: string | null = 'azure-key'): ChannelTarget => ({
  ...channel('azure-openai', 'https://res.openai.azure.com/'),
  upstreamModel: 'gpt-4o-prod',
  apiKey,
  settings,
});

describe('Azure OpenAI codec', () => {
  it('sends the OpenAI body to the deployment path with api-version and the api-key header', () => {
    const ir = fromOaicRequest(parseOrThrow(ChatCompletionRequest, oaicToolRequest()));
    const request = azureOpenaiChat.toRequest(ir, azure({ apiVersion: '2024-10-21', paths: 'deployments' }));
    expect(request.url).toBe('https://res.openai.azure.com/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21');
    expect(request.headers['api-key']).toBe('azure-key');
    expect(request.headers.authorization).toBeUndefined();
    const openai = toOpenaiRequest(ir, { ...azure({}), protocol: 'openai' });
    expect(JSON.parse(request.body as string)).toEqual(JSON.parse(openai.body as string));
  });

  it('uses the v1 paths with the deployment as the body model, and puts responses beside the deployments', () => {
    const v1 = toAzureUpstream('embeddings', { model: 'public', input: 'hi' }, azure({ paths: 'v1' }), { stream: false });
    expect(v1.url).toBe('https://res.openai.azure.com/openai/v1/embeddings');
    expect(JSON.parse(v1.body as string).model).toBe('gpt-4o-prod');
    const responses = toAzureUpstream('responses', { model: 'public', input: 'hi' }, azure({ apiVersion: '2025-04-01-preview' }), { stream: true });
    expect(responses.url).toBe('https://res.openai.azure.com/openai/responses?api-version=2025-04-01-preview');
    expect(responses.stream).toBe(true);
  });

  it('passes an oaic body through with only the model swapped', () => {
    const request = azureOpenaiChat.passThrough!(
      { model: 'public', messages: [{ role: 'user', content: 'hi' }], seed: 7 },
      azure({ apiVersion: '2024-10-21' }),
      true,
    );
    expect(JSON.parse(request.body as string)).toMatchObject({ model: 'gpt-4o-prod', seed: 7, stream: true, stream_options: { include_usage: true } });
    expect(request.url).toContain('/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21');
  });

  it('refuses a channel whose settings lack the api-version its paths need, naming the provider', () => {
    expect(() => toAzureUpstream('chat', {}, azure({ paths: 'deployments' }), { stream: false })).toThrow(
      /provider "p-azure-openai" has invalid azure-openai settings \(settings\.apiVersion/,
    );
  });

  it("reads the content filter's refusal as the client's 400 naming what was filtered", () => {
    const body = JSON.stringify({
      error: {
        message: 'The response was filtered',
        type: null,
        param: 'prompt',
        code: 'content_filter',
        status: 400,
        innererror: {
          code: 'ResponsibleAIPolicyViolation',
          content_filter_result: { hate: { filtered: true, severity: 'high' }, violence: { filtered: false, severity: 'safe' } },
        },
      },
    });
    const error = fromAzureError(400, body);
    expect(error).toMatchObject({ code: 'invalid_request', param: 'prompt', upstreamStatus: 400 });
    expect(error.message).toBe("The upstream's content filter refused the prompt (ResponsibleAIPolicyViolation: hate (high)).");
    expect(fromAzureError(429, JSON.stringify({ error: { code: '429', message: 'Rate limit is exceeded.' } })).code).toBe('rate_limited');
  });

  it('decodes an answer cut by the content filter as a content_filter stop', () => {
    const ir = azureOpenaiChat.fromResponse(
      {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o',
        prompt_filter_results: [],
        choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter', content_filter_results: {} }],
        usage: { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 },
      },
      { model: 'public', fallbackId: 'x', estimatedInputTokens: 3 },
    );
    expect(ir.stopReason).toBe('content_filter');
  });
});
