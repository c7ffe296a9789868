import { EnvError, loadEnv } from '@gateway/platform';
import { EdgeEnv } from './edge-env';

describe('EdgeEnv', () => {
  it('defaults to loopback listeners and a 300 s key cache', () => {
    expect(loadEnv(EdgeEnv, {})).toMatchObject({ HOST: '127.0.0.1', PORT: 8080, ADMIN_HOST: '127.0.0.1', ADMIN_PORT: 8081, KEY_CACHE_TTL_SECONDS: 300 });
    expect(loadEnv(EdgeEnv, {}).ADMIN_TOKEN).toBeUndefined();
  });

  it('treats an empty ADMIN_TOKEN as unset and keeps a real one', () => {
    expect(loadEnv(EdgeEnv, { ADMIN_TOKEN: '' }).ADMIN_TOKEN).toBeUndefined();
    expect(loadEnv(EdgeEnv, { ADMIN_TOKEN: 's3cret' }).ADMIN_TOKEN).toBe('s3cret');
  });

  it('names the variable at fault', () => {
    expect(() => loadEnv(EdgeEnv, { PORT: 'eighty' })).toThrow(EnvError);
    expect(() => loadEnv(EdgeEnv, { PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('reads the URL policy allowlist and refuses an entry that is not a host', () => {
    expect(loadEnv(EdgeEnv, {}).URL_POLICY_ALLOW_HOSTS).toEqual([]);
    expect(loadEnv(EdgeEnv, { URL_POLICY_ALLOW_HOSTS: 'images.corp,*.svc.internal' }).URL_POLICY_ALLOW_HOSTS).toEqual(['images.corp', '*.svc.internal']);
    expect(() => loadEnv(EdgeEnv, { URL_POLICY_ALLOW_HOSTS: 'https://images.corp/' })).toThrow(
      /URL_POLICY_ALLOW_HOSTS: 'https:\/\/images.corp\/' is not a host/,
    );
  });

  it('defaults the listener timeouts and bounds, and reads host lists as lower-case names', () => {
    expect(loadEnv(EdgeEnv, {})).toMatchObject({
      HTTP_HEADERS_TIMEOUT_SECONDS: 10,
      HTTP_REQUEST_TIMEOUT_SECONDS: 60,
      HTTP_IDLE_TIMEOUT_SECONDS: 330,
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: 65,
      KEY_CACHE_MAX_ENTRIES: 50_000,
      NEGATIVE_KEY_CACHE_MAX_ENTRIES: 10_000,
      AUTH_FAILURES_PER_MINUTE: 60,
      ADMIN_ALLOWED_HOSTS: [],
      TRUSTED_PROXIES: [],
    });
    expect(loadEnv(EdgeEnv, { ADMIN_ALLOWED_HOSTS: ' Ops.Example , ,edge', HTTP_HEADERS_TIMEOUT_SECONDS: '0.5' })).toMatchObject({
      ADMIN_ALLOWED_HOSTS: ['ops.example', 'edge'],
      HTTP_HEADERS_TIMEOUT_SECONDS: 0.5,
    });
    expect(() => loadEnv(EdgeEnv, { HTTP_REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(/HTTP_REQUEST_TIMEOUT_SECONDS/);
  });
});
