import { channel } from '../../test/fixtures/chat-fixtures';
import { UPSTREAM_CHAT } from './translation.registry';

const body = { model: 'public-name', messages: [], vendor_only_field: { kept: true } };

describe('each vendor passes its native family through', () => {
  it('openai: the body as sent with the upstream model, bearer auth, usage asked for on a stream', () => {
    const request = UPSTREAM_CHAT.openai.passThrough!(body, channel('openai'), true);
    expect(request).toMatchObject({ url: 'https://upstream.example/v1/chat/completions', stream: true });
    expect(request.headers.authorization).toMatch(/^Bearer /);
    expect(JSON.parse(String(request.body))).toMatchObject({ vendor_only_field: { kept: true }, stream: true, stream_options: { include_usage: true } });
    expect(JSON.parse(String(request.body)).model).not.toBe('public-name');
  });

  it('anthropic: the body as sent with the upstream model and the version header', () => {
    const request = UPSTREAM_CHAT.anthropic.passThrough!(body, channel('anthropic'), false);
    expect(request).toMatchObject({ url: 'https://upstream.example/v1/messages', stream: false });
    expect(request.headers['anthropic-version']).toBeDefined();
    const sent = JSON.parse(String(request.body));
    expect(sent).toMatchObject({ vendor_only_field: { kept: true } });
    expect(sent.model).not.toBe('public-name');
  });

  it('gemini: the body untouched, the upstream model and the stream mode in the URL', () => {
    const target = channel('gemini');
    const request = UPSTREAM_CHAT.gemini.passThrough!(body, target, true);
    expect(request.url).toBe(`https://upstream.example/v1/models/${encodeURIComponent(target.upstreamModel)}:streamGenerateContent?alt=sse`);
    expect(JSON.parse(String(request.body))).toEqual(body);
  });
});
