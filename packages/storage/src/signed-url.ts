import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { isObjectKey } from './object-key';

/** The edge's route for signed object links: `GET /files/signed/{token}`, no API key. */
export const SIGNED_FILE_PATH = '/files/signed';

const DEV_SECRET = 'gateway-dev-signed-url-secret';

/** The signing secret: required in production, a fixed development value elsewhere. */
export const SignedUrlEnv = z
  .object({
    NODE_ENV: z.string().optional(),
    SIGNED_URL_SECRET: z.string().min(16).optional(),
    /** How long a link handed to a client stays valid. */
    SIGNED_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(24 * 3600),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.SIGNED_URL_SECRET)
      ctx.addIssue({ code: 'custom', path: ['SIGNED_URL_SECRET'], message: 'required when NODE_ENV is production' });
  })
  .transform((env) => ({ secret: env.SIGNED_URL_SECRET ?? DEV_SECRET, ttlSeconds: env.SIGNED_URL_TTL_SECONDS }));
export type SignedUrlEnv = z.infer<typeof SignedUrlEnv>;

export interface SignedObject {
  key: string;
  /** Unix seconds after which the link is refused. */
  expiresAt: number;
}

const TOKEN = /^([A-Za-z0-9_-]{1,1400})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * HMAC-SHA256 links to stored objects: the token is `base64url(key).expiry.base64url(mac)`, the MAC over
 * key and expiry, so neither can be changed without the secret. Tokens hold only path-safe characters.
 */
export class UrlSigner {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error('the signed URL secret needs at least 16 characters');
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env): UrlSigner {
    return new UrlSigner(SignedUrlEnv.parse(env).secret);
  }

  token(key: string, expiresAt: number): string {
    if (!isObjectKey(key)) throw new Error(`cannot sign ${JSON.stringify(key)}: not an object key`);
    return `${Buffer.from(key).toString('base64url')}.${Math.floor(expiresAt)}.${this.mac(key, Math.floor(expiresAt))}`;
  }

  /** The gateway path of a signed link (`/files/signed/<token>`), for the caller to put on its own origin. */
  path(key: string, expiresAt: number): string {
    return `${SIGNED_FILE_PATH}/${this.token(key, expiresAt)}`;
  }

  /** The object a token names, or null when it is malformed, tampered with, or expired. */
  verify(token: string, nowSeconds = Date.now() / 1000): SignedObject | null {
    const match = TOKEN.exec(token);
    if (!match) return null;
    const key = Buffer.from(match[1]!, 'base64url').toString();
    const expiresAt = Number(match[2]);
    const given = Buffer.from(match[3]!, 'base64url');
    const expected = Buffer.from(this.mac(key, expiresAt), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (expiresAt <= nowSeconds || !isObjectKey(key)) return null;
    return { key, expiresAt };
  }

  private mac(key: string, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expiresAt}`).digest('base64url');
  }
}
