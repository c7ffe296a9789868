// Same-protocol calls: the body reaches the upstream as sent with only the model swapped, and answers
// come back under the public model id, without touching look-alike fields inside content.
import type { CatalogChannel } from '@gateway/contracts';
import { needsTranslation } from './chat-pipeline.service';
import { passThroughAnswer, passThroughRequest, streamModelRewriter } from './passthrough-request';

const channel = (protocol: CatalogChannel['protocol'], upstreamModel = 'up-model'): CatalogChannel => ({
  id: `ch-${protocol}`,
  providerId: 'p',
  protocol,
  baseUrl: 'https://upstream.example/v1/',
  apiKey: 'secret',
  upstreamModel,
  priority: 0,
  weight: 1,
  nativeBatch: false,
  assistants: false,
});

describe('pass-through requests', () => {
  it('sends an msgc body to an Anthropic upstream as sent, model swapped, unknown fields kept', () => {
    const request = passThroughRequest('anthropic', { model: 'public', max_tokens: 5, messages: [], service_tier: 'auto' }, channel('anthropic'), true);
    expect(request.url).toBe('https://upstream.example/v1/messages');
    expect(request.headers).toMatchObject({ 'x-api-key': 'secret', 'anthropic-version': '2023-06-01', accept: 'text/event-stream' });
    expect(JSON.parse(request.body as string)).toEqual({ model: 'up-model', max_tokens: 5, messages: [], service_tier: 'auto' });
  });

  it('puts the upstream model and the streaming verb of a genc call in the URL', () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    expect(passThroughRequest('gemini', body, channel('gemini', 'g@x'), true).url).toBe(
      'https://upstream.example/v1/models/g%40x:streamGenerateContent?alt=sse',
    );
    const unary = passThroughRequest('gemini', body, channel('gemini'), false);
    expect(unary.url).toBe('https://upstream.example/v1/models/up-model:generateContent');
    expect(JSON.parse(unary.body as string)).toEqual(body);
  });
});

describe('public model id on the way back', () => {
  it('renames msgc model and genc modelVersion', () => {
    expect(passThroughAnswer('msgc', { id: 'm', model: 'up-model' }, 'public')).toEqual({ id: 'm', model: 'public' });
    expect(passThroughAnswer('genc', { candidates: [], modelVersion: 'up-model-001' }, 'public')).toEqual({ candidates: [], modelVersion: 'public' });
  });

  it('rewrites the top-level field of a stream event, never an escaped look-alike in tool arguments', () => {
    const rewrite = streamModelRewriter('oaic', 'public');
    const event = JSON.stringify({
      id: 'c',
      model: 'up "quoted" model',
      choices: [{ delta: { tool_calls: [{ function: { arguments: '{"model":"keep"}' } }] } }],
    });
    const out = JSON.parse(rewrite(event)) as { model: string; choices: Array<{ delta: { tool_calls: Array<{ function: { arguments: string } }> } }> };
    expect(out.model).toBe('public');
    expect(out.choices[0]!.delta.tool_calls[0]!.function.arguments).toBe('{"model":"keep"}');
    expect(streamModelRewriter('genc', 'public')('{"candidates":[],"modelVersion":"v1"}')).toBe('{"candidates":[],"modelVersion":"public"}');
  });
});

describe('which calls need the IR', () => {
  it('only when some channel speaks another protocol than the family', () => {
    expect(needsTranslation('oaic', [channel('openai')])).toBe(false);
    expect(needsTranslation('oaic', [channel('openai'), channel('anthropic')])).toBe(true);
    expect(needsTranslation('msgc', [channel('anthropic')])).toBe(false);
    expect(needsTranslation('genc', [channel('anthropic')])).toBe(true);
  });
});
