import { WalletKeys } from '@gateway/billing';
import { ConsoleReconcileStatus, ReconcileTenant, type ReconcileReport } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { z } from 'zod';
import { WALLET_REDIS } from '../billing/wallet.module';
import { ReconcileService } from './reconcile.service';

/** What is kept of a reconciliation of every tenant: its totals and the tenants whose books do not hold. */
const StoredRun = z.object({
  at: z.string(),
  ok: z.boolean(),
  checked: z.number().int(),
  tookMs: z.number().int(),
  failing: z.array(ReconcileTenant),
});
type StoredRun = z.infer<typeof StoredRun>;

/**
 * The last reconciliation of every tenant, kept in Redis beside the wallet so every accounts replica
 * shows the same one: written by each run over all tenants (the console's and `gatewayctl reconcile --all`).
 */
@Injectable()
export class ReconcileStatusService {
  private readonly key: string;

  constructor(
    @Inject(ReconcileService) private readonly reconciler: ReconcileService,
    @Inject(WALLET_REDIS) private readonly redis: Redis,
    @Inject(WalletKeys) keys: WalletKeys,
  ) {
    this.key = `${keys.tag}:reconcile:last`;
  }

  /** Keeps a report of every tenant as the last one. */
  async keep(report: ReconcileReport, at = new Date()): Promise<void> {
    const run: StoredRun = {
      at: at.toISOString(),
      ok: report.ok,
      checked: report.checked,
      tookMs: report.tookMs,
      failing: report.tenants.filter((t) => !t.ok),
    };
    await this.redis.set(this.key, JSON.stringify(run));
  }

  async last(offset: number, limit: number): Promise<ConsoleReconcileStatus> {
    const text = await this.redis.get(this.key);
    const parsed = text === null ? null : StoredRun.safeParse(JSON.parse(text));
    if (!parsed?.success) return { last: null, offset, limit };
    const { failing, ...totals } = parsed.data;
    return ConsoleReconcileStatus.parse({ last: { ...totals, failingTotal: failing.length, failing: failing.slice(offset, offset + limit) }, offset, limit });
  }

  /** Reconciles every tenant now, keeps the result, and answers its first page. */
  async run(offset: number, limit: number): Promise<ConsoleReconcileStatus> {
    const at = new Date();
    await this.keep(await this.reconciler.reconcile({ all: true }), at);
    return this.last(offset, limit);
  }
}
