import { BillingEnv, WalletEventReader, WalletKeys, WalletPrimary, WalletStore, type WalletRebuild } from '@gateway/billing';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { BILLING_ENV, WALLET_REDIS } from '../billing/wallet.module';
import { BudgetsService } from '../budgets/budgets.service';
import { LedgerService } from './ledger.service';
import { WalletRebuildRepository } from './wallet-rebuild.repository';

/** How far back the ledger is searched for holds still open: longer than any hold lives, task holds included. */
const OPEN_HOLD_WINDOW_SECONDS = 7 * 24 * 3600;
/** A rebuilding replica that dies gives the rebuild to another after this long. */
const LOCK_MS = 60_000;
const EVENTS_CHUNK = 1000;

/**
 * Rebuilds the live wallet when a different Redis server answers than the one it was last found whole on
 * (a promoted replica or a restart from disk, which may lack the newest writes). Every money move is refused
 * meanwhile (the scripts' fence), so the rebuild sees still books: the events the server has are written to
 * the ledger first, then each tenant's balance becomes its stored balance less its open leases, holds the
 * ledger has open but the server lost are held again, holds the ledger has ended are dropped, and each
 * budget's counter becomes what the ledger charged its period.
 */
@Injectable()
export class WalletRebuildService {
  private readonly logger = new Logger(WalletRebuildService.name);
  private readonly primary: WalletPrimary;
  private readonly reader: WalletEventReader;

  constructor(
    @Inject(WALLET_REDIS) redis: Redis,
    @Inject(WalletKeys) keys: WalletKeys,
    @Inject(WalletStore) private readonly wallet: WalletStore,
    @Inject(LedgerService) private readonly ledger: LedgerService,
    @Inject(WalletRebuildRepository) private readonly books: WalletRebuildRepository,
    @Inject(BILLING_ENV) private readonly env: BillingEnv,
    @Inject(BudgetsService) private readonly budgets: BudgetsService,
  ) {
    this.primary = new WalletPrimary(redis, keys);
    this.reader = new WalletEventReader(redis, keys, 'rebuild');
  }

  /** Rebuilds the wallet if the server answering needs it and no other replica is at it; true when this call did. */
  async heal(): Promise<boolean> {
    const { runId, rebuild } = await this.primary.check();
    if (!rebuild) return false;
    const token = randomUUID();
    if (!(await this.primary.lock(token, LOCK_MS))) return false;
    const started = Date.now();
    try {
      const ledgered = await this.ledgerEvents();
      const plan = await this.plan();
      await this.primary.write(plan);
      if (!(await this.primary.lift(runId, token))) {
        await this.primary.unlock(token);
        return false;
      }
      this.logger.warn(
        `wallet rebuilt on Redis server ${runId.slice(0, 8)} in ${Date.now() - started} ms: ${plan.balances.size} balance(s), ` +
          `${plan.restore.length} hold(s) restored, ${plan.drop.length} dropped, ${ledgered} event(s) ledgered`,
      );
      return true;
    } catch (error) {
      await this.primary.unlock(token).catch(() => undefined);
      throw error;
    }
  }

  /** Writes every event the server has to the ledger (a row seen before is skipped) and removes it from the stream. */
  private async ledgerEvents(): Promise<number> {
    let after = '-';
    let written = 0;
    for (;;) {
      const entries = await this.reader.range(after, EVENTS_CHUNK);
      if (entries.length === 0) return written;
      after = entries.at(-1)!.id;
      const readable = entries.filter((entry) => entry.event !== null);
      // A refused event stays in the stream, for the ledger consumer to retry and dead-letter.
      const refused = new Set((await this.ledger.append(readable.map((entry) => entry.event!))).map((refusal) => refusal.index));
      const done = readable.filter((_, index) => !refused.has(index));
      await this.reader.ack(done.map((entry) => entry.id));
      written += done.length;
    }
  }

  private async plan(): Promise<WalletRebuild> {
    const holds = await this.wallet.openHolds();
    const requestHolds = holds.filter((hold) => hold.ledgered && hold.mode === 'balance').map((hold) => hold.id);
    const [stored, open, ended, budgets] = await Promise.all([
      this.books.storedBalances(),
      this.books.openHolds(OPEN_HOLD_WINDOW_SECONDS),
      this.books.ended(requestHolds),
      this.budgets.ledgerCounters(null),
    ]);
    const balances = new Map(stored);
    // A lease is not in the ledger (its requests' draws are): what it still holds is not spendable.
    for (const hold of holds) if (!hold.ledgered && hold.mode === 'balance') balances.set(hold.tenantId, (balances.get(hold.tenantId) ?? 0n) - hold.amount);
    const present = new Set(holds.map((hold) => hold.id));
    const restore = open.filter((hold) => !present.has(hold.requestId));
    for (const { tenantId } of restore) if (!balances.has(tenantId)) balances.set(tenantId, 0n);
    // A lease is not in the ledger either: what it still holds stays on its budget counters.
    const leased = new Map<string, bigint>();
    for (const hold of holds) if (!hold.ledgered) for (const counter of hold.budgets) leased.set(counter, (leased.get(counter) ?? 0n) + hold.amount);
    const counters = budgets.map((c) => ({ ...c, used: c.used + (leased.get(c.counterId) ?? 0n) }));
    return { balances, restore, drop: [...ended], budgets: counters, deadlineMs: Date.now() + this.env.BILLING_HOLD_TTL_MS };
  }
}
