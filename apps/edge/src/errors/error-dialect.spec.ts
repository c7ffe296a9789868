import { ErrorCode, GatewayError, statusForCode, type Family } from '@gateway/contracts';
import { familyOfPath, toDialectError, toGatewayError } from './error-dialect';

const CODES = ErrorCode.options;
const FAMILIES: Family[] = ['oaic', 'msgc', 'genc', 'dsc', 'nativemedia', 'music', 'room'];
const MUSIC_CODES = [400, 401, 404, 405, 413, 429, 430, 455, 500];

const EXPECTED_STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  authentication_failed: 401,
  permission_denied: 403,
  not_found: 404,
  model_not_found: 404,
  payload_too_large: 413,
  rate_limited: 429,
  insufficient_quota: 429,
  budget_exceeded: 429,
  upstream_error: 502,
  upstream_timeout: 504,
  unavailable: 503,
  internal: 500,
};

describe('error dialects', () => {
  it.each(CODES)('%s has its HTTP status', (code) => {
    expect(statusForCode(code)).toBe(EXPECTED_STATUS[code]);
  });

  describe.each(CODES)('code %s', (code) => {
    const error = new GatewayError(code, `msg for ${code}`, 'field');

    it('oaic: {error:{message,type,param,code}}', () => {
      const { status, body } = toDialectError('oaic', error, 'rid');
      expect(status).toBe(EXPECTED_STATUS[code]);
      const { error: fields } = body as { error: Record<string, unknown> };
      expect(Object.keys(fields).sort()).toEqual(['code', 'message', 'param', 'type']);
      expect(fields).toMatchObject({ message: `msg for ${code}`, type: expect.any(String), param: 'field' });
      expect(fields.code === null || typeof fields.code === 'string').toBe(true);
    });

    it('msgc: {type:"error", error:{type,message}}', () => {
      const { status, body } = toDialectError('msgc', error, 'rid');
      expect(status).toBe(EXPECTED_STATUS[code]);
      expect(body).toEqual({ type: 'error', error: { type: expect.stringMatching(/^[a-z_]+$/), message: `msg for ${code}` } });
    });

    it('genc: {error:{code:<status>,message,status}}', () => {
      const { status, body } = toDialectError('genc', error, 'rid');
      expect(body).toEqual({ error: { code: status, message: `msg for ${code}`, status: expect.stringMatching(/^[A-Z_]+$/) } });
    });

    it('dsc: {request_id, code, message}', () => {
      const { body } = toDialectError('dsc', error, 'rid');
      expect(body).toEqual({ request_id: 'rid', code: expect.stringMatching(/^[A-Z][A-Za-z.]+$/), message: `msg for ${code}` });
    });

    it('nativemedia: {code:<int>, message, request_id}', () => {
      const { body } = toDialectError('nativemedia', error, 'rid');
      expect(body).toEqual({ code: expect.any(Number), message: `msg for ${code}`, request_id: 'rid' });
    });

    it('music: status equals a music code', () => {
      const { status, body } = toDialectError('music', error, 'rid');
      expect(MUSIC_CODES).toContain(status);
      expect(body).toEqual({ code: status, msg: `msg for ${code}`, data: null });
    });

    it('room: {success:false, error:{code,message}}', () => {
      const { status, body } = toDialectError('room', error, 'rid');
      expect(status).toBe(EXPECTED_STATUS[code]);
      expect(body).toEqual({ success: false, error: { code, message: `msg for ${code}` } });
    });
  });

  it('uses the exact vendor vocabulary for the common cases', () => {
    const auth = new GatewayError('authentication_failed', 'bad key');
    expect(toDialectError('oaic', auth, 'r').body).toMatchObject({ error: { type: 'authentication_error', code: 'invalid_api_key' } });
    expect(toDialectError('msgc', auth, 'r').body).toMatchObject({ error: { type: 'authentication_error' } });
    expect(toDialectError('genc', auth, 'r').body).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    expect(toDialectError('dsc', auth, 'r').body).toMatchObject({ code: 'InvalidApiKey' });
    expect(toDialectError('oaic', new GatewayError('model_not_found', 'x'), 'r').body).toMatchObject({ error: { code: 'model_not_found' } });
    expect(toDialectError('oaic', new GatewayError('insufficient_quota', 'x'), 'r').body).toMatchObject({
      error: { type: 'insufficient_quota', code: 'insufficient_quota' },
    });
    expect(toDialectError('oaic', new GatewayError('rate_limited', 'x'), 'r').body).toMatchObject({
      error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
    });
    expect(toDialectError('msgc', new GatewayError('unavailable', 'x'), 'r').body).toMatchObject({ error: { type: 'overloaded_error' } });
    expect(toDialectError('genc', new GatewayError('rate_limited', 'x'), 'r').body).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
    expect(toDialectError('music', new GatewayError('rate_limited', 'x'), 'r').status).toBe(430);
    expect(toDialectError('music', new GatewayError('insufficient_quota', 'x'), 'r').status).toBe(429);
    expect(toDialectError('music', new GatewayError('unavailable', 'x'), 'r').status).toBe(455);
  });

  it("passes an upstream's own status through", () => {
    const error = new GatewayError('upstream_error', 'teapot', null, 418);
    for (const family of FAMILIES.filter((f) => f !== 'music')) expect(toDialectError(family, error, 'r').status).toBe(418);
    expect(toDialectError('music', new GatewayError('upstream_error', 'x', null, 405), 'r').status).toBe(405);
    expect(toDialectError('music', error, 'r').status).toBe(500);
  });

  it('maps HTTP-layer failures to their status', () => {
    expect(toGatewayError({ statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY', message: 'bad' })).toMatchObject({
      code: 'invalid_request',
      upstreamStatus: null,
    });
    expect(toGatewayError({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' })).toMatchObject({ code: 'payload_too_large' });
    expect(toGatewayError({ statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', message: 'text/xml' })).toMatchObject({
      code: 'invalid_request',
      upstreamStatus: 415,
    });
    const unexpected = toGatewayError(new Error('secret internals'));
    expect(unexpected).toMatchObject({ code: 'internal', message: 'Internal error' });
  });

  it.each([
    ['/oaic/v1/x', 'oaic'],
    ['/v1/models', 'oaic'],
    ['/msgc/v1/x', 'msgc'],
    ['/msgc', 'msgc'],
    ['/msgcx/v1', 'oaic'],
    ['/genc/v1/models', 'genc'],
    ['/genc/v1beta/models/a:b?alt=sse', 'genc'],
    ['/v1beta/models', 'oaic'],
    ['/dsc/v1/tasks/1', 'dsc'],
    ['/nativemedia/v1/videos', 'nativemedia'],
    ['/music/generate', 'music'],
    ['/v1/chatroom/models?scope=all', 'room'],
    ['/', 'oaic'],
  ])('%s → %s dialect', (path, family) => {
    expect(familyOfPath(path)).toBe(family);
  });
});
