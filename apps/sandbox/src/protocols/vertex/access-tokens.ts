// The opaque access tokens the sandbox's token endpoint issues: each remembers its account and when it
// expires, and the count of tokens issued tells a spec how often a client renewed.
import { randomBytes } from 'node:crypto';

export const DEFAULT_TOKEN_SECONDS = 3600;

interface IssuedToken {
  email: string;
  expiresAtMs: number;
}

export class AccessTokens {
  private readonly tokens = new Map<string, IssuedToken>();
  private issuedCount = 0;

  issue(email: string, lifetimeSeconds: number, nowMs: number): { access_token: string; expires_in: number; token_type: 'Bearer' } {
    this.sweep(nowMs);
    const token = `ya29.sandbox-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { email, expiresAtMs: nowMs + lifetimeSeconds * 1000 });
    this.issuedCount += 1;
    return { access_token: token, expires_in: lifetimeSeconds, token_type: 'Bearer' };
  }

  /** The account a token was issued to, or null when the sandbox never issued it or it has expired. */
  holder(token: string, nowMs: number): string | null {
    const issued = this.tokens.get(token);
    return issued && issued.expiresAtMs > nowMs ? issued.email : null;
  }

  get issued(): number {
    return this.issuedCount;
  }

  private sweep(nowMs: number): void {
    for (const [token, issued] of this.tokens) if (issued.expiresAtMs <= nowMs) this.tokens.delete(token);
  }
}
