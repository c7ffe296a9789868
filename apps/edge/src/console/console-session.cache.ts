import { RPCS, type ConsoleSessionContext } from '@gateway/contracts';
import { ReadThroughCache, type NatsBus } from '@gateway/platform';
import { createHash } from 'node:crypto';
import { followInvalidations } from '../cache/invalidation-feed';

export function sessionTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Unknown cookies are remembered as unknown this long, so a flood of stale ones does not flood accounts. */
const NEGATIVE_TTL_MS = 5_000;

/**
 * Console sessions by cookie token, looked up in accounts once and kept in memory briefly. Ends are
 * broadcast (sign-out, revocation, a new password): every edge drops the session at once.
 */
export class ConsoleSessionCache {
  private readonly cache: ReadThroughCache<ConsoleSessionContext | null>;
  private readonly stopFeed: () => void;

  constructor(
    private readonly bus: NatsBus,
    ttlMs: number,
  ) {
    this.cache = new ReadThroughCache({
      load: (hash) => this.bus.call(RPCS.accounts.console.sessions.resolve, { tokenHash: hash }, { timeoutMs: 5000 }),
      ttlMs,
      negativeTtlMs: NEGATIVE_TTL_MS,
      maxEntries: 10_000,
      maxNegativeEntries: 10_000,
    });
    this.stopFeed = followInvalidations(bus, (event) => {
      if (event === 'all') return this.cache.clear();
      this.cache.drop(event.sessions);
    });
  }

  /** The live session a cookie token names, or null (unknown, ended or expired). */
  async resolve(token: string): Promise<ConsoleSessionContext | null> {
    const cached = this.cache.get(sessionTokenHash(token));
    const session = cached instanceof Promise ? await cached : cached;
    if (session === null || Date.parse(session.expiresAt) <= Date.now()) return null;
    return session;
  }

  /** Forgets a session this edge ended itself, before the broadcast comes back. */
  forget(token: string): void {
    this.cache.drop([sessionTokenHash(token)]);
  }

  stop(): void {
    this.stopFeed();
  }
}
