import { GatewayError, type KeyContext, type RateLimits } from '@gateway/contracts';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { ADMIT_SCRIPT, LEAVE_SCRIPT } from './rate-limit-scripts';

export const LIMITS_REDIS = Symbol('LIMITS_REDIS');
export const LIMITS_NAMESPACE = Symbol('LIMITS_NAMESPACE');

interface LimitCommands {
  rateAdmit(...args: Array<string | number>): Promise<Array<number | string>>;
  rateLeave(...args: Array<string | number>): Promise<number>;
}

const WINDOW_MS = 60_000;
const SCOPES = ['key', 'tenant'] as const;

/** An admitted request: call leave() once its reply has ended (frees its concurrency slot). */
export interface Admission {
  leave(): void;
}

const NOTHING_TO_LEAVE: Admission = { leave: () => undefined };

/** Per-key and per-tenant rate limits, checked in Redis so every edge replica shares the counts. */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  private readonly redis: Redis & LimitCommands;

  constructor(
    @Inject(LIMITS_REDIS) redis: Redis,
    @Inject(LIMITS_NAMESPACE) private readonly namespace: string,
  ) {
    redis.defineCommand('rateAdmit', { numberOfKeys: 10, lua: ADMIT_SCRIPT });
    redis.defineCommand('rateLeave', { lua: LEAVE_SCRIPT });
    this.redis = redis as Redis & LimitCommands;
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  /** Whether the key has any limit at all: without one, no Redis call is made. */
  static limited(context: KeyContext): boolean {
    return Boolean(context.limits && (context.limits.key || context.limits.tenant));
  }

  /** Admits the request or throws rate_limited with the seconds to wait. */
  async admit(context: KeyContext, tokens: number, now = Date.now()): Promise<Admission> {
    const limits = [context.limits?.key ?? null, context.limits?.tenant ?? null] as const;
    const window = Math.floor(now / WINDOW_MS);
    const weight = 1 - (now % WINDOW_MS) / WINDOW_MS;
    const keys = SCOPES.flatMap((scope) => this.scopeKeys(context, scope, window));
    const args = limits.flatMap((l: RateLimits | null) => [l?.rpm ?? 0, l?.tpm ?? 0, l?.concurrency ?? 0]);
    const reply = await this.redis.rateAdmit(...keys, weight.toFixed(4), tokens, ...args);
    if (Number(reply[0]) !== 1) {
      const kind = String(reply[1]) as 'rpm' | 'tpm' | 'concurrency';
      const scope = SCOPES[Number(reply[2])]!;
      const retryAfter = kind === 'concurrency' ? 1 : Math.max(1, Math.ceil((WINDOW_MS - (now % WINDOW_MS)) / 1000));
      throw new RateLimitedError(kind, scope, retryAfter);
    }
    const inFlight = SCOPES.flatMap((scope, i) => (limits[i]?.concurrency ? [this.scopeKeys(context, scope, window)[4]!] : []));
    if (inFlight.length === 0) return NOTHING_TO_LEAVE;
    let left = false;
    return {
      leave: () => {
        if (left) return;
        left = true;
        void this.redis.rateLeave(inFlight.length, ...inFlight).catch(() => undefined);
      },
    };
  }

  private scopeKeys(context: KeyContext, scope: 'key' | 'tenant', window: number): string[] {
    // One hash tag per tenant: both scopes of a request live in one cluster slot, as the script needs.
    const base = `{rl:${this.namespace}:${context.tenantId}}:${scope === 'key' ? `k:${context.keyId}` : 't'}`;
    return [`${base}:r:${window}`, `${base}:r:${window - 1}`, `${base}:t:${window}`, `${base}:t:${window - 1}`, `${base}:c`];
  }
}

/** rate_limited, remembering which limit refused (music answers concurrency with its own code). */
export class RateLimitedError extends GatewayError {
  constructor(
    readonly kind: 'rpm' | 'tpm' | 'concurrency',
    readonly scope: 'key' | 'tenant',
    retryAfterSeconds: number,
  ) {
    const what = { rpm: 'requests per minute', tpm: 'tokens per minute', concurrency: 'concurrent requests' }[kind];
    super(
      'rate_limited',
      `Rate limit reached for ${what} on this ${scope === 'key' ? 'API key' : 'account'}. Retry after ${retryAfterSeconds} s.`,
      null,
      null,
      retryAfterSeconds,
    );
  }
}
