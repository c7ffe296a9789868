import { createHmac } from 'node:crypto';
import { SIGNED_URL_MAX_SECONDS, SignedUrlEnv, UrlSigner } from './signed-url';

describe('UrlSigner', () => {
  const signer = new UrlSigner('a-secret-of-enough-length');
  const now = 1_800_000_000;
  const tenantId = '6f1c7f2e-0c3b-4a51-9d7e-1f2a3b4c5d6e';
  const key = `media/${tenantId}/task_1/0.png`;

  it('verifies its own token until it expires', () => {
    const token = signer.token(key, now + 60);
    expect(signer.verify(token, now)).toEqual({ key, expiresAt: now + 60 });
    expect(signer.verify(token, now + 60)).toBeNull();
    expect(signer.path(key, now + 60)).toMatch(/^\/files\/signed\/[A-Za-z0-9_-]+$/);
  });

  it('makes opaque tokens: neither the tenant, the task nor the expiry can be read from them', () => {
    const token = signer.token(key, now + 60);
    const decoded = Buffer.from(token, 'base64url').toString('latin1');
    for (const part of [tenantId, 'task_1', 'media', String(now + 60)]) {
      expect(token).not.toContain(part);
      expect(decoded).not.toContain(part);
    }
    expect(signer.token(key, now + 60)).not.toBe(token);
  });

  it('refuses a token that was changed, signed with another secret, or malformed', () => {
    const token = signer.token(key, now + 60);
    const raw = Buffer.from(token, 'base64url');
    for (const index of [0, 13, raw.length - 1]) {
      const changed = Buffer.from(raw);
      changed[index] = changed[index]! ^ 1;
      expect(signer.verify(changed.toString('base64url'), now)).toBeNull();
    }
    expect(new UrlSigner('another-secret-of-length').verify(token, now)).toBeNull();
    expect(signer.verify('not-a-token', now)).toBeNull();
    expect(signer.verify('A'.repeat(200), now)).toBeNull();
  });

  it('refuses a token of the former readable form, signed with the former development secret', () => {
    const expiry = now + 60;
    const mac = createHmac('sha256', 'gateway-dev-signed-url-secret').update(`${key}\n${expiry}`).digest('base64url');
    const former = `${Buffer.from(key).toString('base64url')}.${expiry}.${mac}`;
    expect(new UrlSigner('gateway-dev-signed-url-secret').verify(former, now)).toBeNull();
  });

  it('refuses a link living longer than the maximum, even one it signed', () => {
    expect(signer.verify(signer.token(key, now + SIGNED_URL_MAX_SECONDS), now)).not.toBeNull();
    expect(signer.verify(signer.token(key, now + SIGNED_URL_MAX_SECONDS + 60), now)).toBeNull();
  });

  it('signs only task results: no uploads, batch files, sidecars or paths outside the store', () => {
    for (const other of [`files/${tenantId}/file-abc`, `${key}.meta`, `uploads/${tenantId}/r1/a.wav`, 'media', '../etc/passwd']) {
      expect(() => signer.token(other, now + 60)).toThrow('not a task result');
    }
    expect(() => signer.token(`music/${tenantId}/task_2/track.mp3`, now + 60)).not.toThrow();
  });

  it('has no development default: the secret is required in every setting', () => {
    for (const env of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'production' }, { SIGNED_URL_SECRET: '' }, { SIGNED_URL_SECRET: 'short' }]) {
      const parsed = SignedUrlEnv.safeParse(env);
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues[0]!.path).toEqual(['SIGNED_URL_SECRET']);
    }
    expect(() => UrlSigner.fromEnv({})).toThrow(/SIGNED_URL_SECRET/);
    expect(SignedUrlEnv.parse({ SIGNED_URL_SECRET: 'x'.repeat(20), SIGNED_URL_TTL_SECONDS: '60' })).toEqual({ secret: 'x'.repeat(20), ttlSeconds: 60 });
    expect(SignedUrlEnv.safeParse({ SIGNED_URL_SECRET: 'x'.repeat(20), SIGNED_URL_TTL_SECONDS: String(SIGNED_URL_MAX_SECONDS + 1) }).success).toBe(false);
  });
});
