import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { signInAddressOf } from './client-address';
import { RESERVE_SIGN_IN_SCRIPT, SUCCEED_SIGN_IN_SCRIPT } from './sign-in-attempts.script';

export interface SignInPolicy {
  /** Attempts in a row on one email that lock it; the one reaching it locks before it is checked. */
  threshold: number;
  baseSeconds: number;
  maxSeconds: number;
  /** Attempts one address may have failed or in flight within the window. */
  perAddress: number;
  addressWindowSeconds: number;
}

/** What a reservation allows: checking the password, or a refusal for the address or for the email. */
export type SignInReservation =
  | { kind: 'check'; failures: number; lockedUntil: Date | null }
  | { kind: 'locked'; retryAfterSeconds: number }
  | { kind: 'address'; retryAfterSeconds: number };

/** An email's record is kept a day past its last attempt (and at least as long as its longest lock). */
const RECORD_TTL_MS = 24 * 3_600_000;

type AttemptCommands = {
  signInReserve(account: string, address: string, ...args: string[]): Promise<[string, number, number?]>;
  signInSucceed(account: string, address: string): Promise<number>;
};

/**
 * Sign-in attempts counted in Redis before any password is checked: per email (known or not, so an
 * unknown email locks like a real one) and per client address. Shared by every accounts replica.
 */
export class SignInAttempts {
  private readonly redis: Redis & AttemptCommands;

  constructor(
    redis: Redis,
    private readonly tag: string,
    private readonly policy: SignInPolicy,
  ) {
    this.redis = redis as Redis & AttemptCommands;
    if (!('signInReserve' in redis)) {
      redis.defineCommand('signInReserve', { numberOfKeys: 2, lua: RESERVE_SIGN_IN_SCRIPT });
      redis.defineCommand('signInSucceed', { numberOfKeys: 2, lua: SUCCEED_SIGN_IN_SCRIPT });
    }
  }

  async reserve(email: string, ip: string | null): Promise<SignInReservation> {
    const { threshold, baseSeconds, maxSeconds, perAddress, addressWindowSeconds } = this.policy;
    const [kind, first, second] = await this.redis.signInReserve(
      ...this.keysOf(email, ip),
      String(threshold),
      String(baseSeconds * 1000),
      String(maxSeconds * 1000),
      String(perAddress),
      String(addressWindowSeconds * 1000),
      String(Math.max(RECORD_TTL_MS, maxSeconds * 1000)),
    );
    const retryAfterSeconds = Math.max(1, Math.ceil(Number(first) / 1000));
    if (kind === 'address') return { kind, retryAfterSeconds };
    if (kind === 'locked') return { kind, retryAfterSeconds };
    return { kind: 'check', failures: Number(first), lockedUntil: Number(second) > 0 ? new Date(Number(second)) : null };
  }

  async succeed(email: string, ip: string | null): Promise<void> {
    await this.redis.signInSucceed(...this.keysOf(email, ip));
  }

  /** A new password (an invite's reset) starts the email afresh. */
  async forgetEmail(email: string): Promise<void> {
    await this.redis.del(this.keysOf(email, null)[0]);
  }

  private keysOf(email: string, ip: string | null): [string, string] {
    const account = createHash('sha256').update(email).digest('hex');
    return [`${this.tag}:email:${account}`, `${this.tag}:addr:${signInAddressOf(ip)}`];
  }
}
