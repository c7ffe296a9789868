import {
  BalanceSeedReply,
  GatewayError,
  REPLY_LOST_OUTCOME,
  SUBJECTS,
  type BillingMode,
  type BudgetRule,
  type CatalogModel,
  type HoldSettlement,
  type LeaseClose,
} from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import { cacheHitCostOf, costOf, effectivePrices, type Prices, type Usage } from '../pricing/request-cost';
import { maxUsageOf } from '../pricing/request-estimate';
import type { LeaseDraw, ReserveTarget, WalletStore } from '../redis/wallet.store';
import { budgetExceeded, budgetHoldsOf } from './budget-holds';
import { LeaseBook, type LeaseTicket } from './lease-book';
import { ProfileCache } from './profile-cache';

export interface ReserveRequest {
  requestId: string;
  tenantId: string;
  /** The key's kind: `sk-plan-` / `sk-custom-` keys draw on the subscription, `sk-` keys on the balance. */
  keyKind: BillingMode;
  model: CatalogModel;
  body: Record<string, unknown>;
  /** The most the request may use, when its body does not tell (audio: the upload's length). */
  maxUsage?: Usage;
  /** The budgets of its key and project, held in the same step as the balance. */
  budgets?: readonly BudgetRule[];
}

/** What the client remembers of a reservation until its request ends. */
interface Held {
  prices: Prices;
  capability: CatalogModel['capability'];
  /** A request-count quota charges one request whatever the tokens. */
  perRequest: boolean;
  /** Set when the request was admitted under a balance lease rather than its own hold. */
  ticket?: LeaseTicket;
  /** What the request costs whatever its usage says (an answer from the response cache). */
  fixedMicros?: bigint;
}

/** What billing needs of a request's usage record to end its hold. */
export interface UsageFacts {
  requestId: string;
  outcome: string;
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those an upstream's prompt cache read or wrote. */
  cachedTokens?: number;
  cacheWriteTokens?: number;
  /** Seconds of media the request was metered for (audio priced per second). */
  seconds?: number;
}

/** Where and at what prices a tenant's request draws (see BillingClient.planOf). */
export interface BillingPlan {
  prices: Prices;
  /** A request-count quota: every request costs one, whatever it used. */
  perRequest: boolean;
  target: ReserveTarget;
}

export interface BillingClientOptions {
  enabled: boolean;
  /** How long a hold lives if its request never ends (the process died); the sweeper then releases it. */
  holdTtlMs: number;
  /** Pay-as-you-go requests are admitted under leases of this many requests' cost (0: each request holds its own). */
  leaseRequests?: number;
  /** How long a lease's hold lives unless renewed (the book renews it while the lease is open). */
  leaseTtlMs?: number;
}

const LEASE_IDLE_MS = 2000;
const LEASE_MAX_AGE_MS = 30_000;
const DEFAULT_LEASE_TTL_MS = 60_000;

/** Request ids are the server's, so this means a bug or tampering: refuse, and leave the other hold alone. */
function holdConflict(): GatewayError {
  return new GatewayError('internal', 'The billing hold for this request belongs to another tenant.');
}

function quotaExhausted(what: string): GatewayError {
  return new GatewayError('insufficient_quota', `You exceeded your current quota: ${what}. Check your plan and billing details.`);
}

/**
 * The billing side of a request for the service that runs it: reserve the maximum cost before the
 * upstream call, then settle at actual usage or release. Pay-as-you-go requests are admitted in memory
 * under a balance lease (one Redis call per lease, see LeaseBook), or, when no lease can cover them,
 * with one Redis script call each; subscriptions also need the tenant's profile, asked of accounts once
 * and cached.
 */
export class BillingClient {
  private readonly held = new Map<string, Held>();
  private readonly leases?: LeaseBook;

  constructor(
    readonly wallet: WalletStore,
    private readonly bus: NatsBus,
    readonly profiles: ProfileCache,
    private readonly options: BillingClientOptions,
  ) {
    if (options.leaseRequests) {
      this.leases = new LeaseBook(wallet, (tenantId) => this.seed(tenantId), {
        requestsPerLease: options.leaseRequests,
        idleMs: LEASE_IDLE_MS,
        maxAgeMs: LEASE_MAX_AGE_MS,
        holdTtlMs: options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
      });
    }
  }

  /** Receives each closed lease, to carry after its requests' draws (see UsageBatch). */
  onLeaseClose(listener: (close: LeaseClose) => void): void {
    this.leases?.onClose(listener);
  }

  /** Stops admitting under leases (shutdown); each closes once its requests have ended. */
  retireLeases(): void {
    this.leases?.retireAll();
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  /** Reserves the request's maximum cost; throws insufficient_quota when the balance or quota cannot cover it. */
  async reserve(request: ReserveRequest): Promise<void> {
    if (!this.options.enabled) return;
    const usage = request.maxUsage ?? maxUsageOf(request.model.capability, request.body, request.model.defaultMaxTokens);
    const plan = await this.planOf(request.tenantId, request.keyKind, request.model);
    if (plan.target.mode === 'balance') return this.reserveBalance(request, plan.prices, costOf(plan.prices, usage));
    const amount = plan.perRequest ? 1n : costOf(plan.prices, usage);
    await this.reserveHold(request.requestId, request.tenantId, amount, plan, this.options.holdTtlMs, request.budgets);
    this.held.set(request.requestId, { prices: plan.prices, perRequest: plan.perRequest, capability: request.model.capability });
  }

  /**
   * An answer from the response cache: its price (the catalog's cacheHitPerMTok over the stored answer's
   * tokens) is known before it is served, so that is all it holds. Returns that price in micro-units when
   * it is what the hold settles at (null: billing off, or a plan that counts requests).
   */
  async reserveHit(request: Omit<ReserveRequest, 'body' | 'maxUsage'>, tokens: { inputTokens: number; outputTokens: number }): Promise<bigint | null> {
    if (!this.options.enabled) return null;
    const plan = await this.planOf(request.tenantId, request.keyKind, request.model);
    const override = request.keyKind === 'payg' ? undefined : (await this.profiles.get(request.tenantId)).subscription?.priceOverrides[request.model.id];
    const micros = cacheHitCostOf(request.model.prices, tokens, override);
    const amount = plan.perRequest ? 1n : micros;
    if (amount === 0n) return micros;
    if (plan.target.mode === 'balance') {
      await this.reserveBalance(request, plan.prices, amount, micros);
      return micros;
    }
    await this.reserveHold(request.requestId, request.tenantId, amount, plan, this.options.holdTtlMs, request.budgets);
    this.held.set(request.requestId, { prices: plan.prices, perRequest: plan.perRequest, capability: request.model.capability, fixedMicros: micros });
    return plan.perRequest ? null : micros;
  }

  /**
   * Where a tenant's request for `model` draws and at what prices: the prepaid balance (payg keys, and
   * subscriptions without a period quota), or the current period's quota counter, in micro-units or in
   * requests (a request-count plan charges one request whatever the usage).
   */
  async planOf(tenantId: string, keyKind: BillingMode, model: CatalogModel): Promise<BillingPlan> {
    if (keyKind === 'payg') return { prices: effectivePrices(model.prices), perRequest: false, target: { mode: 'balance' } };
    const profile = await this.profiles.get(tenantId);
    const subscription = profile.subscription;
    if (subscription?.expiresAt && Date.parse(subscription.expiresAt) <= Date.now()) {
      throw new GatewayError('authentication_failed', 'This API key has expired: its subscription ended.');
    }
    const prices = effectivePrices(model.prices, subscription?.priceOverrides[model.id]);
    if (!subscription?.periodSeconds || (subscription.quotaMicros === null && subscription.quotaRequests === null)) {
      return { prices, perRequest: false, target: { mode: 'balance' } };
    }
    const periodMs = subscription.periodSeconds * 1000;
    const elapsed = Math.max(0, Date.now() - Date.parse(subscription.startsAt));
    const periodIndex = Math.floor(elapsed / periodMs);
    const ttlSeconds = Math.ceil(((periodIndex + 1) * periodMs - elapsed) / 1000) + 60;
    const perRequest = subscription.quotaMicros === null;
    const target: ReserveTarget = perRequest
      ? { mode: 'quota', unit: 'requests', periodIndex, limit: BigInt(subscription.quotaRequests!), ttlSeconds }
      : { mode: 'quota', unit: 'micros', periodIndex, limit: BigInt(subscription.quotaMicros!), ttlSeconds };
    return { prices, perRequest, target };
  }

  /**
   * Holds `amount` under `holdId` where the plan draws and against each budget, in one atomic step,
   * without a lease and without remembering it in this process: whoever ends the hold (settle or release
   * by id on the wallet) may be another process. A plan that counts requests holds no budget (budgets
   * are money).
   */
  async reserveHold(
    holdId: string,
    tenantId: string,
    amount: bigint,
    plan: BillingPlan,
    holdTtlMs: number,
    budgets: readonly BudgetRule[] = [],
  ): Promise<void> {
    const rules = plan.perRequest ? [] : budgets;
    const now = Date.now();
    const input = { requestId: holdId, tenantId, amount, holdTtlMs, target: plan.target, budgets: budgetHoldsOf(rules, now) };
    let outcome = await this.wallet.reserve(input);
    if (outcome.status === 'unseeded') {
      await this.seed(tenantId);
      outcome = await this.wallet.reserve(input);
    }
    if (outcome.status === 'conflict') throw holdConflict();
    if (outcome.status === 'reserved') return;
    if (outcome.status === 'over_budget') throw budgetExceeded(rules[outcome.budget]!, outcome.left, now);
    if (plan.target.mode === 'balance') throw quotaExhausted('the prepaid balance cannot cover this request');
    throw quotaExhausted(plan.perRequest ? 'the requests of this period are used up' : 'the credit of this period is used up');
  }

  /**
   * Decides how a request's hold ends from its usage record, without I/O: served (or cut short by the
   * client, which keeps what it received) settles at the metered tokens; any failure releases the
   * whole hold. Null when this process holds nothing for the request (billing off, or already ended).
   */
  settlementFor(event: UsageFacts): HoldSettlement | null {
    const held = this.held.get(event.requestId);
    if (!held) return null;
    this.held.delete(event.requestId);
    const served = event.outcome === 'ok' || event.outcome === 'cancelled' || event.outcome === 'cache_hit' || event.outcome === REPLY_LOST_OUTCOME;
    if (held.ticket) {
      const charge = this.leases!.end(held.ticket, served ? this.costOf(held, event) : 0n);
      return charge > 0n ? { action: 'draw', lease: held.ticket.lease.id, micros: charge.toString(), held: held.ticket.reserved.toString() } : null;
    }
    if (!served) return { action: 'release' };
    if (held.perRequest) return { action: 'settle', micros: '1' };
    return { action: 'settle', micros: this.costOf(held, event).toString() };
  }

  private costOf(held: Held, event: UsageFacts): bigint {
    if (held.fixedMicros !== undefined) return held.fixedMicros;
    // Image answers count generated images where chat counts completion tokens.
    const usage: Usage =
      held.capability === 'image'
        ? { inputTokens: event.promptTokens, outputTokens: 0, images: event.completionTokens }
        : {
            inputTokens: event.promptTokens,
            outputTokens: event.completionTokens,
            cachedInputTokens: event.cachedTokens,
            cacheWriteTokens: event.cacheWriteTokens,
            seconds: event.seconds,
          };
    return costOf(held.prices, usage);
  }

  /** Ends holds as decided by `settlementFor`, wherever they were decided (see WalletStore.applySettlements). */
  async applySettlements(items: ReadonlyArray<{ requestId: string; settlement: HoldSettlement }>): Promise<LeaseDraw[]> {
    return this.wallet.applySettlements(items);
  }

  /** Ends the request's hold at once from its usage record (settle, or release on failure). */
  async finish(event: UsageFacts): Promise<void> {
    const settlement = this.settlementFor(event);
    if (settlement) await this.applySettlements([{ requestId: event.requestId, settlement }]);
  }

  /**
   * Admits `amount` under a balance lease when one covers it, else holds it; `fixedMicros` is what a
   * fixed-price request settles at. A request under budgets is admitted under a lease held against the
   * same budget counters (see LeaseBook.admit), or holds its own against them.
   */
  private async reserveBalance(request: Omit<ReserveRequest, 'body' | 'maxUsage'>, prices: Prices, amount: bigint, fixedMicros?: bigint): Promise<void> {
    const held: Held = { prices, perRequest: false, capability: request.model.capability, ...(fixedMicros !== undefined ? { fixedMicros } : {}) };
    const budgets = request.budgets !== undefined && request.budgets.length > 0 ? budgetHoldsOf(request.budgets, Date.now()) : [];
    const ticket = amount > 0n ? await this.leases?.admit(request.tenantId, amount, budgets) : null;
    if (ticket) {
      this.held.set(request.requestId, { ...held, ticket });
      return;
    }
    const plan: BillingPlan = { prices, perRequest: false, target: { mode: 'balance' } };
    await this.reserveHold(request.requestId, request.tenantId, amount, plan, this.options.holdTtlMs, request.budgets);
    this.held.set(request.requestId, held);
  }

  /** First request of the tenant since Redis started: accounts copies the stored balance in (SET NX). */
  private async seed(tenantId: string): Promise<void> {
    await this.bus.request(SUBJECTS.accounts.billing.seed, { tenantId }, BalanceSeedReply);
  }
}
