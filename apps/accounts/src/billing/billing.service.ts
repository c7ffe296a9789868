import {
  formatMicros,
  GatewayError,
  PriceOverride,
  TenantLimitsConfig,
  usageResultOf,
  type BillingConfigureMessage,
  type BillingProfile,
  type SubscriptionProfile,
  type UsageRequests,
  type UsageRequestsRequest,
  type UsageSummary,
} from '@gateway/contracts';
import { WalletStore } from '@gateway/billing';
import { Prisma } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { InvalidationPublisher } from '../events/invalidation.publisher';
import { planWindowOf, type PlanWindow } from '../money/plan-window';
import { TenantsService } from '../tenants/tenants.service';
import { BillingRepository } from './billing.repository';
import { BudgetsService } from '../budgets/budgets.service';
import { paygCostOf } from './payg-cost';
import { usageRowView } from './usage-row';

type SubscriptionRow = NonNullable<NonNullable<Awaited<ReturnType<BillingRepository['tenantWithSubscription']>>>['subscription']>;

const StoredOverrides = z.record(z.string(), PriceOverride);

function toSubscriptionProfile(row: SubscriptionRow | null): SubscriptionProfile | null {
  if (!row) return null;
  const overrides = StoredOverrides.safeParse(row.priceOverrides ?? {});
  return {
    kind: row.kind,
    quotaMicros: row.quotaMicros?.toString() ?? null,
    quotaRequests: row.quotaRequests,
    periodSeconds: row.periodSeconds,
    startsAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    // A malformed stored override must not make requests free or fail: the catalog price applies.
    priceOverrides: overrides.success ? overrides.data : {},
  };
}

/** Billing facts accounts answers for: tenants' profiles, balance seeding, operator settings, usage summaries. */
@Injectable()
export class BillingService {
  constructor(
    @Inject(BillingRepository) private readonly billing: BillingRepository,
    @Inject(WalletStore) private readonly wallet: WalletStore,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(InvalidationPublisher) private readonly invalidation: InvalidationPublisher,
    @Inject(BudgetsService) private readonly budgets: BudgetsService,
  ) {}

  async profile(tenantId: string): Promise<BillingProfile> {
    const tenant = z.uuid().safeParse(tenantId).success ? await this.billing.tenantWithSubscription(tenantId) : null;
    if (!tenant) throw GatewayError.notFound(`tenant "${tenantId}" does not exist`, 'tenantId');
    return { tenantId, billing: tenant.billing, subscription: toSubscriptionProfile(tenant.subscription) };
  }

  /** Copies the stored balance into Redis unless Redis already has one (it is then the live truth). */
  async seed(tenantId: string): Promise<{ micros: string }> {
    await this.profile(tenantId);
    await this.wallet.seed(tenantId, await this.billing.storedBalance(tenantId));
    await this.budgets.seedCounters(tenantId);
    return { micros: ((await this.wallet.balance(tenantId)) ?? 0n).toString() };
  }

  async configure(request: BillingConfigureMessage) {
    const tenant = await this.tenants.requireBySlug(request.tenant);
    let limits = TenantLimitsConfig.nullable().parse(tenant.limits ?? null);
    if (request.limits !== undefined) {
      limits = request.limits;
      await this.billing.setTenantLimits(tenant.id, limits === null ? Prisma.DbNull : limits);
    }
    if (request.quota || request.priceOverrides) {
      if (tenant.billing !== 'custom') throw GatewayError.invalid(`tenant "${tenant.slug}" is not on a custom subscription`, 'tenant');
      const quota = request.quota;
      await this.billing.setSubscriptionTerms(tenant.id, tenant.billing, {
        ...(quota
          ? { quotaMicros: quota.credit ? BigInt(quota.credit) : null, quotaRequests: quota.requests ?? null, periodSeconds: quota.periodSeconds }
          : {}),
        ...(request.priceOverrides ? { priceOverrides: request.priceOverrides } : {}),
      });
    }
    // Edges cache limits with the key and billing clients cache the profile: both drop the tenant now.
    this.invalidation.publish({ tenantIds: [tenant.id] });
    const profile = await this.profile(tenant.id);
    return { tenant: tenant.slug, limits, subscription: profile.subscription };
  }

  async usageRequests(request: UsageRequestsRequest): Promise<UsageRequests> {
    const tenant = await this.tenants.requireBySlug(request.tenant);
    const ids = { clientRequestId: request.clientRequestId, requestId: request.requestId, subjectId: request.subjectId };
    const rows = await this.billing.usageRequests(tenant.id, ids, request.limit);
    return {
      tenant: tenant.slug,
      rows: rows.map((row) => ({
        ...usageRowView(row),
        result: usageResultOf(row.outcome),
        costMicros: row.cost_micros.toString(),
        cost: formatMicros(row.cost_micros),
      })),
    };
  }

  /** A plan's current window: quota used and left, and what the window's usage would have cost at pay-as-you-go prices. */
  private async planWindow(tenantId: string, window: PlanWindow) {
    const [used, byModel] = await Promise.all([
      this.wallet.quotaUsed(tenantId, window.periodIndex, window.unit),
      this.billing.usageSummary(tenantId, window.windowStart, 'model', window.windowEnd),
    ]);
    const models = await this.billing.catalogPrices(byModel.map((row) => row.group));
    const wouldCost = paygCostOf(
      byModel.map((row) => ({
        model: row.group,
        promptTokens: row.prompt_tokens,
        completionTokens: row.completion_tokens,
        cachedTokens: row.cached_tokens,
        seconds: Number(row.seconds),
        images: row.images,
        tasks: row.tasks,
      })),
      models,
    );
    return {
      unit: window.unit,
      used: used.toString(),
      limit: window.limit.toString(),
      left: (window.limit > used ? window.limit - used : 0n).toString(),
      windowStart: window.windowStart.toISOString(),
      windowEnd: window.windowEnd.toISOString(),
      wouldCostMicros: wouldCost.toString(),
      wouldCost: formatMicros(wouldCost),
    };
  }

  async usageSummary(tenantSlug: string, since: string | undefined, by: UsageSummary['by'], until?: string): Promise<UsageSummary> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    const rows = await this.billing.usageSummary(tenant.id, since ? new Date(since) : null, by, until ? new Date(until) : null);
    const window = tenant.billing === 'payg' ? null : planWindowOf((await this.profile(tenant.id)).subscription);
    const plan = window ? [await this.planWindow(tenant.id, window)] : undefined;
    return {
      tenant: tenant.slug,
      since: since ?? null,
      until: until ?? null,
      by,
      ...(plan ? { plan } : {}),
      rows: rows.map((row) => ({
        group: row.group,
        requests: Number(row.requests),
        promptTokens: Number(row.prompt_tokens),
        completionTokens: Number(row.completion_tokens),
        seconds: Number(row.seconds),
        images: Number(row.images),
        tasks: Number(row.tasks),
        costMicros: row.cost_micros.toString(),
        cost: formatMicros(row.cost_micros),
      })),
    };
  }
}
