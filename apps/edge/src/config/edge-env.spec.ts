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
    expect(() => loadEnv(EdgeEnv, { URL_POLICY_ALLOW_HOSTS: 'https://images.corp/' })).toThrow(/URL_POLICY_ALLOW_HOSTS: 'https:\/\/images.corp\/' is not a host/);
  });
});
