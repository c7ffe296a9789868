// A bearer token of one provider, renewed before it expires: one renewal in flight however many calls
// wait for it. A token still valid is served while its renewal runs; an expired one makes callers wait.
import type { GatewayError } from '@gateway/contracts';

export interface AccessToken {
  token: string;
  /** Epoch milliseconds. */
  expiresOnTimestamp: number;
}

export interface AccessTokenCacheOptions {
  /** How long before expiry a renewal starts; at most half the token's lifetime. Default 5 minutes. */
  renewBeforeMs?: number;
  now?: () => number;
}

const DEFAULT_RENEW_BEFORE_MS = 5 * 60_000;

export class AccessTokenCache {
  private current: AccessToken | null = null;
  private renewAt = 0;
  private renewal: Promise<string> | null = null;
  private readonly renewBeforeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly fetchToken: () => Promise<AccessToken | null>,
    private readonly failure: (cause: unknown) => GatewayError,
    options: AccessTokenCacheOptions = {},
  ) {
    this.renewBeforeMs = options.renewBeforeMs ?? DEFAULT_RENEW_BEFORE_MS;
    this.now = options.now ?? Date.now;
  }

  /** The token at once when one is fresh; otherwise the one renewal every caller shares. */
  token(): string | Promise<string> {
    const current = this.current;
    const now = this.now();
    if (current && now < this.renewAt) return current.token;
    const renewal = (this.renewal ??= this.renew());
    if (current && now < current.expiresOnTimestamp) {
      renewal.catch(() => undefined);
      return current.token;
    }
    return renewal;
  }

  private async renew(): Promise<string> {
    const obtainedAt = this.now();
    try {
      const fresh = await this.fetchToken();
      if (!fresh) throw new Error('the credential returned no token');
      const lifetime = Math.max(0, fresh.expiresOnTimestamp - obtainedAt);
      this.current = fresh;
      this.renewAt = fresh.expiresOnTimestamp - Math.min(this.renewBeforeMs, lifetime / 2);
      return fresh.token;
    } catch (cause) {
      throw this.failure(cause);
    } finally {
      this.renewal = null;
    }
  }
}
