import { WalletKeys, WalletStore, type OpenHold } from '@gateway/billing';
import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { z } from 'zod';
import { WALLET_REDIS } from '../billing/wallet.module';

/** What reconciliation reads of a wallet event not yet in the ledger: whose, which pool, how much. */
const PendingEvent = z.object({ tenant: z.string().min(1), pool: z.string(), amount: z.string().regex(/^-?\d+$/), budgets: z.string().optional() });

/** What the live wallet says of the tenants being reconciled, read in a few pipelined round trips. */
export interface WalletView {
  balances: Map<string, bigint | null>;
  holds: OpenHold[];
  /** Per tenant: balance-pool amounts of wallet events not yet written to the ledger. */
  pending: Map<string, bigint>;
  /** Per budget counter: what the wallet events naming it and not yet written to the ledger charged it. */
  pendingBudgets: Map<string, bigint>;
}

const CHUNK = 1000;

/** Reads the live wallet in Redis for reconciliation; it writes nothing. */
@Injectable()
export class WalletInspector {
  constructor(
    @Inject(WALLET_REDIS) private readonly redis: Redis,
    @Inject(WalletKeys) private readonly keys: WalletKeys,
    @Inject(WalletStore) private readonly store: WalletStore,
  ) {}

  async view(tenantIds: readonly string[]): Promise<WalletView> {
    const [balances, holds, { pending, pendingBudgets }] = await Promise.all([this.balances(tenantIds), this.store.openHolds(), this.pending()]);
    return { balances, holds, pending, pendingBudgets };
  }

  /** Quota counters by key (a counter never opened, or expired, reads 0). */
  async counters(keys: readonly string[]): Promise<Map<string, bigint>> {
    const counters = new Map<string, bigint>();
    for (let i = 0; i < keys.length; i += CHUNK) {
      const chunk = keys.slice(i, i + CHUNK);
      const values = await this.redis.mget(...chunk);
      chunk.forEach((key, index) => counters.set(key, BigInt(values[index] ?? '0')));
    }
    return counters;
  }

  /** Budget counters by id (one never opened, or expired, reads 0). */
  async budgetCounters(counterIds: readonly string[]): Promise<Map<string, bigint>> {
    const byKey = await this.counters(counterIds.map((id) => this.keys.budget(id)));
    return new Map(counterIds.map((id) => [id, byKey.get(this.keys.budget(id)) ?? 0n]));
  }

  quotaKey(tenantId: string, periodIndex: number, unit: 'micros' | 'requests'): string {
    return this.keys.quota(tenantId, periodIndex, unit);
  }

  private async balances(tenantIds: readonly string[]): Promise<Map<string, bigint | null>> {
    const balances = new Map<string, bigint | null>();
    for (let i = 0; i < tenantIds.length; i += CHUNK) {
      const chunk = tenantIds.slice(i, i + CHUNK);
      const values = chunk.length ? await this.redis.mget(...chunk.map((id) => this.keys.balance(id))) : [];
      chunk.forEach((id, index) => balances.set(id, values[index] == null ? null : BigInt(values[index]!)));
    }
    return balances;
  }

  private async pending(): Promise<{ pending: Map<string, bigint>; pendingBudgets: Map<string, bigint> }> {
    const pending = new Map<string, bigint>();
    const pendingBudgets = new Map<string, bigint>();
    const entries = (await this.redis.xrange(this.keys.events, '-', '+')) as Array<[string, string[]]>;
    for (const [, fields] of entries) {
      const record: Record<string, string> = {};
      for (let i = 0; i + 1 < fields.length; i += 2) record[fields[i]!] = fields[i + 1]!;
      // Any kind counts by its signed amount, one this version does not know included.
      const event = PendingEvent.safeParse(record);
      if (!event.success) continue;
      for (const counter of event.data.budgets?.split(',') ?? []) {
        if (counter) pendingBudgets.set(counter, (pendingBudgets.get(counter) ?? 0n) - BigInt(event.data.amount));
      }
      if (event.data.pool !== 'balance') continue;
      pending.set(event.data.tenant, (pending.get(event.data.tenant) ?? 0n) + BigInt(event.data.amount));
    }
    return { pending, pendingBudgets };
  }
}
