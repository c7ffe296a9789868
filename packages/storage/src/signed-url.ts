import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { isObjectKey } from './object-key';

/** The edge's route for signed object links: `GET /files/signed/{token}`, no API key. */
export const SIGNED_FILE_PATH = '/files/signed';

/** The longest a link may live, whatever it says: a token expiring later than this from now is refused. */
export const SIGNED_URL_MAX_SECONDS = 7 * 24 * 3600;

/**
 * What a link may name: task results (media and music), never an upload, a batch file or a storage
 * sidecar. A tenant's files are read with its key, not through links.
 */
const SIGNABLE_PREFIXES: readonly string[] = ['media', 'music'];

export function isSignableKey(key: string): boolean {
  const segments = key.split('/');
  return isObjectKey(key) && segments.length >= 2 && SIGNABLE_PREFIXES.includes(segments[0]!) && !segments.at(-1)!.endsWith('.meta');
}

/**
 * The signing secret has no default: every service that builds or serves links refuses to start
 * without one (`npm start` generates one and keeps it under `.data/`).
 */
export const SignedUrlEnv = z
  .object({
    SIGNED_URL_SECRET: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.string({ error: 'required: a secret of 16+ characters that signs result links (npm start generates one)' }).min(16),
    ),
    /** How long a link handed to a client stays valid (at most SIGNED_URL_MAX_SECONDS). */
    SIGNED_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .max(SIGNED_URL_MAX_SECONDS)
      .default(24 * 3600),
  })
  .transform((env) => ({ secret: env.SIGNED_URL_SECRET, ttlSeconds: env.SIGNED_URL_TTL_SECONDS }));
export type SignedUrlEnv = z.infer<typeof SignedUrlEnv>;

/** The link settings, or an error naming the variable at fault (start-up stops on it). */
export function loadSignedUrlEnv(env: NodeJS.ProcessEnv = process.env): SignedUrlEnv {
  const parsed = SignedUrlEnv.safeParse(env);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(`Invalid environment variable ${String(issue.path[0] ?? 'SIGNED_URL_SECRET')}: ${issue.message}`);
}

export interface SignedObject {
  key: string;
  /** Unix seconds after which the link is refused. */
  expiresAt: number;
}

const TOKEN = /^[A-Za-z0-9_-]{40,1400}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Opaque links to stored task results: the token is `base64url(iv | AES-256-GCM(expiry, key) | tag)`
 * under a key derived from the secret, so it reveals neither the object (tenant, task) nor its expiry,
 * and cannot be changed or minted without the secret. Tokens hold only path-safe characters.
 */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 16) throw new Error('the signed URL secret needs at least 16 characters');
    this.key = Buffer.from(hkdfSync('sha256', secret, 'gateway signed links', 'aes-256-gcm v2', 32));
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env): UrlSigner {
    return new UrlSigner(loadSignedUrlEnv(env).secret);
  }

  token(key: string, expiresAt: number): string {
    if (!isSignableKey(key)) throw new Error(`cannot sign ${JSON.stringify(key)}: not a task result's object key`);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(`${Math.floor(expiresAt)}\n${key}`, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /** The gateway path of a signed link (`/files/signed/<token>`), for the caller to put on its own origin. */
  path(key: string, expiresAt: number): string {
    return `${SIGNED_FILE_PATH}/${this.token(key, expiresAt)}`;
  }

  /** The object a token names, or null when it is malformed, tampered with, expired or too long-lived. */
  verify(token: string, nowSeconds = Date.now() / 1000): SignedObject | null {
    if (!TOKEN.test(token)) return null;
    const raw = Buffer.from(token, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return null;
    let text: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
    const match = /^(\d{1,12})\n(.+)$/s.exec(text);
    if (!match) return null;
    const expiresAt = Number(match[1]);
    const key = match[2]!;
    if (expiresAt <= nowSeconds || expiresAt > nowSeconds + SIGNED_URL_MAX_SECONDS || !isSignableKey(key)) return null;
    return { key, expiresAt };
  }
}
