import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { loadSignedUrlEnv } from './signed-url';

/**
 * The per-task token of a vendor callback URL: `<task id>.<HMAC-SHA256 of the id>`, keyed by a key derived
 * from SIGNED_URL_SECRET for this use alone (the edge checks it, the media service issues and checks it).
 * Nothing is stored: the token proves the gateway issued it for that task, and a forged one names no task.
 */
export class CallbackTokenSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'gateway', 'media task callback token', 32));
  }

  /** From SIGNED_URL_SECRET (start-up stops on a missing or short one). */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): CallbackTokenSigner {
    return new CallbackTokenSigner(loadSignedUrlEnv(env).secret);
  }

  tokenOf(taskId: string): string {
    return `${taskId}.${this.mac(taskId).toString('base64url')}`;
  }

  /** The task a token was issued for, or null when it was not issued by this gateway. */
  taskIdOf(token: string): string | null {
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return null;
    const taskId = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = this.mac(taskId);
    return given.length === expected.length && timingSafeEqual(given, expected) ? taskId : null;
  }

  private mac(taskId: string): Buffer {
    return createHmac('sha256', this.key).update(taskId).digest();
  }
}
