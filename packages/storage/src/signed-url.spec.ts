import { SignedUrlEnv, UrlSigner } from './signed-url';

describe('UrlSigner', () => {
  const signer = new UrlSigner('a-secret-of-enough-length');
  const now = 1_800_000_000;

  it('verifies its own token until it expires', () => {
    const token = signer.token('media/t1/task_1/video.mp4', now + 60);
    expect(signer.verify(token, now)).toEqual({ key: 'media/t1/task_1/video.mp4', expiresAt: now + 60 });
    expect(signer.verify(token, now + 60)).toBeNull();
    expect(signer.path('a/b', now)).toMatch(/^\/files\/signed\/[A-Za-z0-9_.-]+$/);
  });

  it('refuses a token whose key, expiry or mac was changed, or signed with another secret', () => {
    const token = signer.token('media/t1/a.mp4', now + 60);
    const [key, expiry, mac] = token.split('.');
    expect(signer.verify(`${Buffer.from('media/t2/a.mp4').toString('base64url')}.${expiry}.${mac}`, now)).toBeNull();
    expect(signer.verify(`${key}.${Number(expiry) + 1000}.${mac}`, now)).toBeNull();
    expect(signer.verify(`${key}.${expiry}.${'A'.repeat(43)}`, now)).toBeNull();
    expect(new UrlSigner('another-secret-of-length').verify(token, now)).toBeNull();
    expect(signer.verify('not-a-token', now)).toBeNull();
  });

  it('refuses to sign what is not an object key', () => {
    expect(() => signer.token('../etc/passwd', now)).toThrow('not an object key');
  });

  it('needs the secret in production and has a development default elsewhere', () => {
    expect(SignedUrlEnv.safeParse({ NODE_ENV: 'production' }).success).toBe(false);
    expect(SignedUrlEnv.parse({}).secret.length).toBeGreaterThanOrEqual(16);
    expect(SignedUrlEnv.parse({ SIGNED_URL_SECRET: 'x'.repeat(20), SIGNED_URL_TTL_SECONDS: '60' })).toEqual({ secret: 'x'.repeat(20), ttlSeconds: 60 });
  });
});
