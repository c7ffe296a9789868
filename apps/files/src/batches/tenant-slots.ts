import type Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** Takes a slot when fewer than `cap` live leases are held; expired leases (a dead worker's) are dropped first. */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return 1
end
return 0`;

const LEASE_MS = 30_000;
const RENEW_MS = 10_000;
const WAIT_MS = 25;

/**
 * Bounds the lines one tenant has in flight over every worker: a Redis sorted set of leases per tenant,
 * renewed while held, so a killed worker's slots free themselves within LEASE_MS.
 */
export class TenantSlots {
  private readonly held = new Map<string, string>();
  private readonly renewer: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly cap: number,
  ) {
    this.renewer = setInterval(() => void this.renew(), RENEW_MS);
    this.renewer.unref();
  }

  private key(tenantId: string): string {
    return `${this.prefix}batch-slots:${tenantId}`;
  }

  /** Waits for a slot of `tenantId`; returns its release. */
  async acquire(tenantId: string, signal?: AbortSignal): Promise<() => Promise<void>> {
    const slot = randomBytes(8).toString('hex');
    const key = this.key(tenantId);
    for (;;) {
      const now = Date.now();
      const taken = await this.redis.eval(ACQUIRE, 1, key, now, this.cap, now + LEASE_MS, slot, LEASE_MS * 2);
      if (taken === 1) break;
      if (signal?.aborted) throw signal.reason;
      await sleep(WAIT_MS);
    }
    this.held.set(slot, key);
    return async () => {
      this.held.delete(slot);
      await this.redis.zrem(key, slot);
    };
  }

  private async renew(): Promise<void> {
    const until = Date.now() + LEASE_MS;
    await Promise.all([...this.held].map(([slot, key]) => this.redis.zadd(key, 'XX', until, slot).catch(() => undefined)));
  }

  close(): void {
    clearInterval(this.renewer);
  }
}
