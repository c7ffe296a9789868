import { GatewayError } from '@gateway/contracts';
import { fromAnthropicError } from '../vendors/anthropic';
import { fromGeminiError } from '../vendors/gemini';
import { fromUpstreamError } from '../vendors/openai/openai-error.map';
import { crossedUpstreamError } from './crossed-error';

describe('crossedUpstreamError', () => {
  it("maps an OpenAI upstream's param back to the msgc client's field", () => {
    const upstream = fromUpstreamError(
      400,
      JSON.stringify({ error: { message: "Unsupported value: 'max_completion_tokens' is too large", param: 'max_completion_tokens' } }),
    );
    const error = crossedUpstreamError(upstream, 'msgc', 'oaic');
    expect(error.param).toBe('max_tokens');
    expect(error.code).toBe('invalid_request');
    expect(error.upstreamStatus).toBe(400);
    expect(error.message).toMatch(/^The upstream refused the request as translated/);
    expect(error.message).toContain("it concerns 'max_tokens' of your request");
  });

  it("maps a Gemini upstream's quoted path to the oaic client's field", () => {
    const upstream = fromGeminiError(
      400,
      JSON.stringify({ error: { code: 400, message: "Invalid value at 'generation_config.temperature' (TYPE_FLOAT), 9", status: 'INVALID_ARGUMENT' } }),
    );
    const error = crossedUpstreamError(upstream, 'oaic', 'genc');
    expect(error.param).toBe('temperature');
    expect(error.message).toContain("it concerns 'temperature' of your request");
  });

  it("maps an Anthropic upstream's leading path to the genc client's field", () => {
    const upstream = fromAnthropicError(
      400,
      JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: 100000 > 8192, which is the maximum' } }),
    );
    expect(crossedUpstreamError(upstream, 'genc', 'msgc').param).toBe('generationConfig.maxOutputTokens');
  });

  it('never hands an unmapped upstream path to the client as its own param', () => {
    const upstream = fromUpstreamError(400, JSON.stringify({ error: { message: 'Invalid content', param: 'messages[1].content[0].image_url' } }));
    const error = crossedUpstreamError(upstream, 'genc', 'oaic');
    expect(upstream.param).toBe('messages[1].content[0].image_url');
    expect(error.param).toBeNull();
    expect(error.message).toBe('The upstream refused the request as translated for its own format (its field names, not yours): Invalid content.');
  });

  it('passes errors that are not about the request unchanged', () => {
    const limited = new GatewayError('rate_limited', 'slow down', null, 429, 3);
    expect(crossedUpstreamError(limited, 'oaic', 'msgc')).toBe(limited);
  });
});
