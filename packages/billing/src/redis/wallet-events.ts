import type Redis from 'ioredis';
import { z } from 'zod';
import type { WalletKeys } from './wallet-keys';

/** One ledger event as the wallet scripts append it; amount is signed micro-units moved into the pool. */
export const LedgerEvent = z.object({
  rid: z.string().min(1),
  tenant: z.string().min(1),
  kind: z.enum(['reserve', 'settle', 'release', 'plan_grant']),
  pool: z.enum(['balance', 'quota']),
  amount: z.string().regex(/^-?\d+$/),
  note: z.string().optional(),
});
export type LedgerEvent = z.infer<typeof LedgerEvent>;

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
    const reply = (await this.redis.xreadgroup('GROUP', GROUP, this.consumer, 'COUNT', count, 'BLOCK', blockMs, 'STREAMS', this.keys.events, '>')) as
      | Array<[string, RawEntry[]]>
      | null;
    return reply?.[0]?.[1].map(toEntry) ?? [];
  }

  /** Entries pending too long under any consumer (one that crashed), now owned by this one. */
  async claimStale(claimIdleMs: number, count: number): Promise<StreamEntry[]> {
    const reply = (await this.redis.xautoclaim(this.keys.events, GROUP, this.consumer, claimIdleMs, '0', 'COUNT', count)) as [string, RawEntry[]];
    return (reply[1] ?? []).filter((entry) => Array.isArray(entry) && entry[1] !== null).map(toEntry);
  }

  /** Acknowledges and deletes written entries, so the stream holds only what is not yet in Postgres. */
  async ack(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.redis.multi().xack(this.keys.events, GROUP, ...ids).xdel(this.keys.events, ...ids).exec();
  }
}
