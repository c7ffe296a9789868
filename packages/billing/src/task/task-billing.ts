import type { BillingMode, BudgetRule, CatalogModel } from '@gateway/contracts';
import type { BillingClient } from '../client/billing-client';
import { costOf, type Prices } from '../pricing/request-cost';
import type { TaskHold, TaskQuantity } from './task-hold';

export interface TaskHoldRequest {
  /** A server id naming the task (its hold id in the wallet). */
  holdId: string;
  tenantId: string;
  keyKind: BillingMode;
  model: CatalogModel;
  /** What the task asks for: requested seconds, images, and 1 task. */
  quantity: TaskQuantity;
  /** Longer than the task may run: the hold sweeper releases a hold nobody ended after this. */
  holdTtlMs: number;
  /** The budgets of the key and project that asked for it, held like a chat request's. */
  budgets?: readonly BudgetRule[];
}

function taskCost(prices: Prices, quantity: TaskQuantity): bigint {
  return costOf(prices, { inputTokens: 0, outputTokens: 0, seconds: quantity.seconds, images: quantity.images, tasks: quantity.tasks });
}

function pricesOf(hold: TaskHold): Prices {
  return {
    inputPerMTok: 0n,
    outputPerMTok: 0n,
    perSecond: BigInt(hold.prices.perSecond),
    perImage: BigInt(hold.prices.perImage),
    perTask: BigInt(hold.prices.perTask),
    cachedInputPerMTok: 0n,
    cacheWritePerMTok: 0n,
  };
}

/**
 * Billing of asynchronous tasks (media, music): a hold at creation priced from the catalog (perSecond ×
 * requested seconds, perImage × images, perTask) with the tenant's price overrides, or one request of a
 * plan that counts requests; settled on success at what was produced, released on every failure. The
 * hold lives in the shared wallet under the task's id, so any worker may end it, and ending it twice
 * changes nothing (the wallet scripts end a hold once); callers still end it only after winning the
 * task's terminal compare-and-swap.
 */
export class TaskBilling {
  constructor(private readonly client: BillingClient) {}

  get enabled(): boolean {
    return this.client.enabled;
  }

  /** Holds the task's maximum cost; throws insufficient_quota (429) when it cannot be covered. Null when billing is off. */
  async hold(request: TaskHoldRequest): Promise<TaskHold | null> {
    if (!this.client.enabled) return null;
    const plan = await this.client.planOf(request.tenantId, request.keyKind, request.model);
    const amount = plan.perRequest ? 1n : taskCost(plan.prices, request.quantity);
    await this.client.reserveHold(request.holdId, request.tenantId, amount, plan, request.holdTtlMs, request.budgets);
    const { perSecond, perImage, perTask } = plan.prices;
    return {
      holdId: request.holdId,
      tenantId: request.tenantId,
      perRequest: plan.perRequest,
      prices: { perSecond: perSecond.toString(), perImage: perImage.toString(), perTask: perTask.toString() },
      heldMicros: amount.toString(),
    };
  }

  /** What a task that produced `produced` costs under its hold's prices (one request on a request-count plan). */
  costOf(hold: TaskHold, produced: TaskQuantity): bigint {
    return hold.perRequest ? 1n : taskCost(pricesOf(hold), produced);
  }

  /** Charges what was produced and returns the rest; the charge, or null when the hold was already ended. */
  async settle(hold: TaskHold, produced: TaskQuantity, note = 'task'): Promise<bigint | null> {
    return this.client.wallet.settle(hold.holdId, this.costOf(hold, produced), note);
  }

  /** Gives the whole hold back (ledgered as `release`); false when it was already ended. */
  async release(hold: TaskHold, note = 'task failed'): Promise<boolean> {
    return this.client.wallet.release(hold.holdId, note);
  }
}
