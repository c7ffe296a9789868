// The sandbox's Microsoft identity platform: one test tenant and client, opaque bearer tokens it issued
// (checked by the Azure API routes), a settable lifetime and a switch that makes the endpoint fail, and a
// count of issued tokens so a spec can tell how many renewals happened.
import { randomBytes } from 'node:crypto';

export const SANDBOX_AZURE_TENANT = 'sandbox-tenant';
export const SANDBOX_AZURE_CLIENT_ID = 'sandbox-client';
export const SANDBOX_AZURE_CLIENT_SECRET = 'sandbox-client-secret';
export const SANDBOX_AZURE_API_KEY = 'sandbox-azure-key';

export interface IssuerSettings {
  /** Lifetime of the tokens issued from now on, in seconds. */
  expiresIn: number;
  /** When set, the token endpoint answers this status. */
  failWith: number | null;
}

export class AzureTokenIssuer {
  private readonly tokens = new Map<string, number>();
  private issuedCount = 0;
  settings: IssuerSettings = { expiresIn: 3600, failWith: null };

  issue(): { token: string; expiresIn: number } {
    const token = `sbx-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, Date.now() + this.settings.expiresIn * 1000);
    this.issuedCount += 1;
    return { token, expiresIn: this.settings.expiresIn };
  }

  /** `valid`, `expired` or `unknown`. */
  check(token: string): 'valid' | 'expired' | 'unknown' {
    const expires = this.tokens.get(token);
    if (expires === undefined) return 'unknown';
    return Date.now() < expires ? 'valid' : 'expired';
  }

  get issued(): number {
    return this.issuedCount;
  }

  reset(): void {
    this.tokens.clear();
    this.issuedCount = 0;
    this.settings = { expiresIn: 3600, failWith: null };
  }
}
