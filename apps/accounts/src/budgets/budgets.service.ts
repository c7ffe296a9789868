import { z } from 'zod';
import { GatewayError, type BudgetRule, type BudgetSetMessage, type BudgetShowMessage, type BudgetView } from '@gateway/contracts';
import { budgetHoldsOf, WalletStore, type BudgetCounter } from '@gateway/billing';
import { Inject, Injectable } from '@nestjs/common';
import { InvalidationPublisher } from '../events/invalidation.publisher';
import { TenantsService } from '../tenants/tenants.service';
import { budgetRuleOf, budgetRulesOf } from './budget-rules';
import { counterIdOf, toBudgetView } from './budget-view';
import { BudgetsRepository, type BudgetRecord, type BudgetTargetIds } from './budgets.repository';

/**
 * Budgets on keys and projects: stored here, carried to the edge in each key's context, and held by the
 * wallet's scripts in the same step as the balance. A change reaches every edge through the tenant's
 * invalidation, so the next request holds against the new amount. What a budget shows as used is what the
 * ledger charged its period (and requests still running hold): the live counter also carries the leases
 * chat processes hold against it, many requests' worst case, which are not spending.
 */
@Injectable()
export class BudgetsService {
  constructor(
    @Inject(BudgetsRepository) private readonly budgets: BudgetsRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(WalletStore) private readonly wallet: WalletStore,
    @Inject(InvalidationPublisher) private readonly invalidation: InvalidationPublisher,
  ) {}

  async set(message: BudgetSetMessage): Promise<BudgetView> {
    const target = await this.targetOf(message);
    const budget = await this.budgets.upsert(target, {
      amountMicros: BigInt(message.amountMicros),
      period: message.period,
      mode: message.mode,
      alertAt: [...message.alertAt].sort((a, b) => a - b),
    });
    this.invalidation.publish({ tenantIds: [target.tenantId] });
    return this.view(budget);
  }

  async show(message: BudgetShowMessage): Promise<BudgetView | null> {
    const budget = await this.budgets.find(await this.targetOf(message));
    return budget ? this.view(budget) : null;
  }

  async clear(message: BudgetShowMessage): Promise<boolean> {
    const target = await this.targetOf(message);
    const cleared = await this.budgets.remove(target);
    if (cleared) this.invalidation.publish({ tenantIds: [target.tenantId] });
    return cleared;
  }

  async list(tenantSlug: string): Promise<BudgetView[]> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    const budgets = await this.budgets.listByTenant(tenant.id);
    const now = Date.now();
    const used = await this.budgets.charges(budgets.map((b) => counterIdOf(b, now)));
    return budgets.map((b) => toBudgetView(b, used.get(counterIdOf(b, now)) ?? 0n, now));
  }

  /**
   * Copies each budget's current counter from the ledger into a wallet that lacks it (SET NX), as the balance
   * is seeded: after Redis lost its data, a budget starts from what its period was charged, not from zero.
   */
  async seedCounters(tenantId: string, now = Date.now()): Promise<void> {
    await this.wallet.seedBudgets(await this.ledgerCounters(tenantId, now));
  }

  /** Each budget's current counter as the ledger has it (of one tenant, or of all): what a rebuilt wallet holds. */
  async ledgerCounters(tenantId: string | null, now = Date.now()): Promise<BudgetCounter[]> {
    const budgets = tenantId === null ? await this.budgets.listAll() : await this.budgets.listByTenant(tenantId);
    if (budgets.length === 0) return [];
    const counters = budgets.map((budget) => ({ budget, counterId: counterIdOf(budget, now) }));
    const charged = await this.budgets.charges(counters.map((c) => c.counterId));
    return counters.map(({ budget, counterId }) => ({
      counterId,
      used: charged.get(counterId) ?? 0n,
      ttlSeconds: budgetHoldsOf([budgetRuleOf(budget, '')], now)[0]!.ttlSeconds,
    }));
  }

  /** The budgets a key's requests are held against; none for a key that does not exist. */
  async ofKey(keyId: string): Promise<BudgetRule[]> {
    const key = z.uuid().safeParse(keyId).success ? await this.budgets.keyWithBudgets(keyId) : null;
    return key ? budgetRulesOf(key) : [];
  }

  private async view(budget: BudgetRecord): Promise<BudgetView> {
    const now = Date.now();
    const counterId = counterIdOf(budget, now);
    return toBudgetView(budget, (await this.budgets.charges([counterId])).get(counterId) ?? 0n, now);
  }

  /** The key (by id) or the tenant's project (by name) a message names; `owner` confines it to one tenant (the console). */
  private async targetOf(message: BudgetShowMessage): Promise<BudgetTargetIds> {
    if (message.key !== undefined) {
      const key = await this.budgets.findKey(message.key);
      if (!key || (message.owner !== undefined && key.tenant.slug !== message.owner)) throw GatewayError.notFound(`key "${message.key}" does not exist`, 'key');
      return { tenantId: key.tenantId, scope: 'key', keyId: key.id, projectId: null };
    }
    if (message.tenant === undefined || message.project === undefined) throw GatewayError.invalid('name a key, or a tenant and its project', 'key');
    if (message.owner !== undefined && message.tenant !== message.owner) throw GatewayError.notFound(`tenant "${message.tenant}" does not exist`, 'tenant');
    const tenant = await this.tenants.requireBySlug(message.tenant);
    const project = await this.budgets.findProject(tenant.id, message.project);
    if (!project) throw GatewayError.notFound(`tenant "${tenant.slug}" has no project "${message.project}"`, 'project');
    return { tenantId: tenant.id, scope: 'project', keyId: null, projectId: project.id };
  }
}
