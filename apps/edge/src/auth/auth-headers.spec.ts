import { GatewayError } from '@gateway/contracts';
import { checkMsgcVersion, extractApiKey } from './auth-headers';

function failure(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected a failure');
}

describe('extractApiKey', () => {
  describe('bearer routes', () => {
    it('reads Authorization: Bearer, any case of the scheme', () => {
      expect(extractApiKey('bearer', { authorization: 'Bearer sk-1' })).toBe('sk-1');
      expect(extractApiKey('bearer', { authorization: 'bearer sk-2' })).toBe('sk-2');
    });

    it('ignores x-goog-api-key beside the bearer header', () => {
      expect(extractApiKey('bearer', { authorization: 'Bearer sk-1', 'x-goog-api-key': 'sk-other' })).toBe('sk-1');
    });

    it('refuses x-api-key alone with 401 naming the bearer header', () => {
      const error = failure(() => extractApiKey('bearer', { 'x-api-key': 'sk-1' }));
      expect(error.code).toBe('authentication_failed');
      expect(error.message).toContain('Authorization: Bearer');
      expect(error.message).toContain('x-api-key');
    });

    it('refuses no key and a malformed header with 401', () => {
      expect(failure(() => extractApiKey('bearer', {})).code).toBe('authentication_failed');
      expect(failure(() => extractApiKey('bearer', { authorization: 'Basic abc' })).code).toBe('authentication_failed');
      expect(failure(() => extractApiKey('bearer', { authorization: 'Bearer ' })).code).toBe('authentication_failed');
    });
  });

  describe('msgc routes', () => {
    const version = { 'msgc-version': '2023-06-01' };

    it('reads x-api-key with msgc-version, ignoring anthropic-version', () => {
      expect(extractApiKey('msgc', { 'x-api-key': 'sk-1', ...version, 'anthropic-version': '2023-06-01' })).toBe('sk-1');
    });

    it('reads the key whatever the version header says: the key is answered first, as the vendor does', () => {
      for (const headers of [{ 'x-api-key': 'sk-1' }, { 'x-api-key': 'sk-1', 'msgc-version': '2099-01-01' }])
        expect(extractApiKey('msgc', headers)).toBe('sk-1');
      for (const headers of [{}, { authorization: 'Bearer sk-1' }]) expect(failure(() => extractApiKey('msgc', headers)).code).toBe('authentication_failed');
    });

    it('refuses a missing or unknown version with 400 naming msgc-version', () => {
      for (const headers of [{}, { 'x-api-key': 'sk-1' }, { 'x-api-key': 'sk-1', 'msgc-version': '2099-01-01' }]) {
        const error = failure(() => checkMsgcVersion(headers));
        expect(error.code).toBe('invalid_request');
        expect(error.param).toBe('msgc-version');
      }
      expect(() => checkMsgcVersion(version)).not.toThrow();
    });

    it('refuses bearer without x-api-key with 401 naming x-api-key', () => {
      const error = failure(() => extractApiKey('msgc', { authorization: 'Bearer sk-1', ...version }));
      expect(error.code).toBe('authentication_failed');
      expect(error.message).toContain('x-api-key');
    });

    it('refuses a missing key with 401', () => {
      expect(failure(() => extractApiKey('msgc', version)).code).toBe('authentication_failed');
    });
  });
});
