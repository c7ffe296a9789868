import { fromUpstreamError } from './openai-error.map';

const body = (message: string, extra: Record<string, unknown> = {}) => JSON.stringify({ error: { message, type: 'x', param: null, code: null, ...extra } });

describe('fromUpstreamError', () => {
  it('passes a 400 through as invalid_request with the upstream param', () => {
    const error = fromUpstreamError(400, body("Invalid value for 'temperature'", { param: 'temperature' }));
    expect(error).toMatchObject({ code: 'invalid_request', message: "Invalid value for 'temperature'", param: 'temperature', upstreamStatus: 400 });
  });

  it('turns an upstream auth failure into a 502 upstream_error without the key', () => {
    const error = fromUpstreamError(401, body('Incorrect API key provided: sk-upstream-secret-123.'), { secrets: ['sk-upstream-secret-123'] });
    expect(error.code).toBe('upstream_error');
    expect(error.upstreamStatus).toBeNull();
    expect(error.message).toContain('credentials');
    expect(error.message).not.toContain('sk-upstream-secret-123');
  });

  it('keeps 429 with retry-after and 5xx with their status', () => {
    expect(fromUpstreamError(429, body('slow down'), { headers: { 'retry-after': '3' } })).toMatchObject({
      code: 'rate_limited',
      upstreamStatus: 429,
      retryAfterSeconds: 3,
    });
    expect(fromUpstreamError(503, body('overloaded'))).toMatchObject({ code: 'upstream_error', upstreamStatus: 503, message: 'overloaded' });
    expect(fromUpstreamError(504, '')).toMatchObject({ code: 'upstream_timeout', message: 'Upstream answered HTTP 504.' });
  });

  it('reads plain-text and string-error bodies, scrubbing credentials', () => {
    expect(fromUpstreamError(500, 'proxy to http://user:pw@10.0.0.1/v1 failed, Authorization: Bearer abcdef').message).toBe(
      'proxy to http://[redacted]@10.0.0.1/v1 failed, Authorization: Bearer [redacted]',
    );
    expect(fromUpstreamError(500, JSON.stringify({ error: 'model crashed' })).message).toBe('model crashed');
    expect(fromUpstreamError(502, 'x'.repeat(2000)).message.length).toBeLessThan(600);
  });
});
