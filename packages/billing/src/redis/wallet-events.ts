import type Redis from 'ioredis';
import { z } from 'zod';
import type { WalletKeys } from './wallet-keys';
import type { LeaseDraw } from './wallet.store';

/** One ledger event as the wallet scripts append it; amount is signed micro-units moved into the pool. */
export const LedgerEvent = z.object({
  rid: z.string().min(1),
  tenant: z.string().min(1),
  /**
   * `overrun`: usage charged beyond its hold (the upstream reported more than was reserved);
   * `write_off`: usage beyond the hold and the balance, never charged (amount 0, the note says how much).
   */
  kind: z.enum(['reserve', 'settle', 'release', 'plan_grant', 'overrun', 'write_off']),
  pool: z.enum(['balance', 'quota']),
  amount: z.string().regex(/^-?\d+$/),
  note: z.string().optional(),
  /** The budget counters the event's hold drew on, comma-separated (`key:<uuid>:d20261129,project:<uuid>:m202611`). */
  budgets: z.string().optional(),
});
export type LedgerEvent = z.infer<typeof LedgerEvent>;

/**
 * A lease draw's ledger rows, written by the usage writer (a draw is not ledgered by its script): the
 * charge up to what the request was admitted for as `settle`, any charge beyond that as `overrun`, and
 * usage the lease and the balance could not cover as a `write_off` moving nothing.
 */
export function leaseDrawEvents(draw: LeaseDraw): LedgerEvent[] {
  const { requestId: rid, tenantId: tenant, pool, charged, overrun, writtenOff } = draw;
  const budgets = draw.budgets ? { budgets: draw.budgets } : {};
  const events: LedgerEvent[] = [{ rid, tenant, kind: 'settle', pool, amount: (overrun - charged).toString(), note: 'lease', ...budgets }];
  if (overrun > 0n)
    events.push({
      rid,
      tenant,
      kind: 'overrun',
      pool,
      amount: (-overrun).toString(),
      note: `lease: usage above the ${charged - overrun} admitted`,
      ...budgets,
    });
  if (writtenOff > 0n)
    events.push({ rid, tenant, kind: 'write_off', pool, amount: '0', note: `lease: written off: ${writtenOff} of usage above the lease and the ${pool}` });
  return events;
}

export interface StreamEntry {
  id: string;
  event: LedgerEvent | null;
}

type RawEntry = [string, string[]];

function toEntry([id, fields]: RawEntry): StreamEntry {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) record[fields[i]!] = fields[i + 1]!;
  const parsed = LedgerEvent.safeParse(record);
  return { id, event: parsed.success ? parsed.data : null };
}

const GROUP = 'ledger';

/**
 * Reads the wallet's event stream as one member of the `ledger` consumer group: entries stay pending
 * until acknowledged, and entries a dead consumer left pending are claimed after `claimIdleMs`.
 */
export class WalletEventReader {
  constructor(
    private readonly redis: Redis,
    private readonly keys: WalletKeys,
    private readonly consumer: string,
  ) {}

  async ensureGroup(): Promise<void> {
    try {
      await this.redis.xgroup('CREATE', this.keys.events, GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!String((error as Error).message).includes('BUSYGROUP')) throw error;
    }
  }

  /** New entries for this consumer, waiting up to `blockMs` when there are none. */
  async read(count: number, blockMs: number): Promise<StreamEntry[]> {
    const reply = (await this.redis.xreadgroup('GROUP', GROUP, this.consumer, 'COUNT', count, 'BLOCK', blockMs, 'STREAMS', this.keys.events, '>')) as Array<
      [string, RawEntry[]]
    > | null;
    return reply?.[0]?.[1].map(toEntry) ?? [];
  }

  /** Entries pending too long under any consumer (one that crashed), now owned by this one. */
  async claimStale(claimIdleMs: number, count: number): Promise<StreamEntry[]> {
    const reply = (await this.redis.xautoclaim(this.keys.events, GROUP, this.consumer, claimIdleMs, '0', 'COUNT', count)) as [string, RawEntry[]];
    return (reply[1] ?? []).filter((entry) => Array.isArray(entry) && entry[1] !== null).map(toEntry);
  }

  /** Entries after `after` (exclusive; '-' from the first) in stream order, whoever has read them. */
  async range(after: string, count: number): Promise<StreamEntry[]> {
    const reply = (await this.redis.xrange(this.keys.events, after === '-' ? '-' : `(${after}`, '+', 'COUNT', count)) as RawEntry[];
    return reply.map(toEntry);
  }

  /** Acknowledges and deletes written entries, so the stream holds only what is not yet in Postgres. */
  async ack(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.redis
      .multi()
      .xack(this.keys.events, GROUP, ...ids)
      .xdel(this.keys.events, ...ids)
      .exec();
  }

  /** How many times each pending entry has been delivered (read or claimed); an entry not pending is absent. */
  async deliveries(ids: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (ids.length === 0) return counts;
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.xpending(this.keys.events, GROUP, id, id, 1);
    for (const [error, reply] of (await pipeline.exec()) ?? []) {
      if (error) throw error;
      for (const [id, , , delivered] of reply as Array<[string, string, number, number]>) counts.set(id, Number(delivered));
    }
    return counts;
  }

  /** Takes pending entries back for this consumer at once (a delivery each): a retry of entries it failed to write. */
  async reclaim(ids: string[]): Promise<StreamEntry[]> {
    if (ids.length === 0) return [];
    const reply = (await this.redis.xclaim(this.keys.events, GROUP, this.consumer, 0, ...ids)) as RawEntry[];
    return reply.filter((entry) => Array.isArray(entry) && entry[1] !== null).map(toEntry);
  }
}
