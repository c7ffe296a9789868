import { CacheSettings, StoredProviderSettings, TenantLimitsConfig } from '@gateway/contracts';
import { Prisma, PrismaClient } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';
import { storedFeatureControls } from '../tenants/feature-controls';
import type { ApplyPlan, ChannelRow, CurrentState, CurrentTenant, ProjectBudgetRow } from './config-plan.types';

type Tx = Prisma.TransactionClient;

// A large catalog applied over a slow link must not hit Prisma's 5 s interactive default.
const APPLY_TIMEOUT_MS = 60_000;
/** Any fixed 64-bit number; only config applies take this lock. */
const APPLY_LOCK_KEY = 4_242_001n;

/** Settings as stored: a row written before settings existed, or holding anything else, has none. */
function storedSettings(value: Prisma.JsonValue): StoredProviderSettings | null {
  const parsed = StoredProviderSettings.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** A stored budget's values alone, as the planner compares them with the file's. */
function budgetRow(budget: ProjectBudgetRow | null): ProjectBudgetRow | null {
  return budget && { amountMicros: budget.amountMicros, period: budget.period, mode: budget.mode, alertAt: budget.alertAt };
}

function toJson(settings: StoredProviderSettings | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return settings === null ? Prisma.DbNull : (settings as Prisma.InputJsonValue);
}

@Injectable()
export class ConfigRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /**
   * Reads the current state, lets `decide` plan against it, and writes the plan, all in one transaction.
   * Applies take a transaction-scoped advisory lock first, so concurrent applies queue instead of
   * planning against state the other is changing. Returns the plan and the touched tenants' ids.
   */
  applyInTransaction(tenantSlugs: string[], decide: (state: CurrentState) => ApplyPlan): Promise<{ plan: ApplyPlan; touchedTenantIds: string[] }> {
    return this.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${APPLY_LOCK_KEY})`;
        const plan = decide(await this.loadState(tx, tenantSlugs));
        await this.writeCatalog(tx, plan);
        await this.writeAccounts(tx, plan);
        await this.writeProjects(tx, plan);
        const touched = await tx.tenant.findMany({ where: { slug: { in: plan.touchedTenants } }, select: { id: true } });
        return { plan, touchedTenantIds: touched.map((t) => t.id) };
      },
      { timeout: APPLY_TIMEOUT_MS, maxWait: APPLY_TIMEOUT_MS },
    );
  }

  private async loadState(tx: Tx, tenantSlugs: string[]): Promise<CurrentState> {
    const [providers, models, channels, plans, tenants] = await Promise.all([
      tx.provider.findMany(),
      tx.model.findMany(),
      tx.channel.findMany(),
      tx.plan.findMany(),
      tx.tenant.findMany({
        where: { slug: { in: tenantSlugs } },
        include: { subscription: { include: { plan: true } }, grants: true, projects: { include: { budget: true } } },
      }),
    ]);
    const channelsByModel = new Map<string, ChannelRow[]>();
    for (const channel of channels) channelsByModel.set(channel.modelId, [...(channelsByModel.get(channel.modelId) ?? []), channel]);
    return {
      providers: new Map(providers.map((p) => [p.id, { ...p, settings: storedSettings(p.settings) }])),
      models: new Map(models.map((m) => [m.id, m])),
      channelsByModel,
      plans: new Map(plans.map((p) => [p.name, p])),
      tenants: new Map(
        tenants.map((t): [string, CurrentTenant] => [
          t.slug,
          {
            slug: t.slug,
            name: t.name,
            billing: t.billing,
            featureControls: storedFeatureControls(t.featureControls),
            limits: TenantLimitsConfig.nullable()
              .catch(null)
              .parse(t.limits ?? null),
            cache: CacheSettings.nullable()
              .catch(null)
              .parse(t.cache ?? null),
            subscription: t.subscription
              ? { kind: t.subscription.kind, planName: t.subscription.plan?.name ?? null, expiresAt: t.subscription.expiresAt }
              : null,
            grants: t.grants.map((g) => g.modelId),
            projects: new Map(
              t.projects.map((p) => [p.name, { slug: t.slug, name: p.name, models: p.models, denyModels: p.denyModels, budget: budgetRow(p.budget) }]),
            ),
          },
        ]),
      ),
    };
  }

  private async writeCatalog(tx: Tx, plan: ApplyPlan): Promise<void> {
    // A JSON column takes DbNull, not null, for "no settings".
    const withSettings = <T extends { settings: StoredProviderSettings | null }>(row: T) => ({ ...row, settings: toJson(row.settings) });
    if (plan.providers.create.length) await tx.provider.createMany({ data: plan.providers.create.map(withSettings) });
    for (const { id, ...data } of plan.providers.update) await tx.provider.update({ where: { id }, data: withSettings(data) });
    if (plan.models.create.length) await tx.model.createMany({ data: plan.models.create });
    for (const { id, ...data } of plan.models.update) await tx.model.update({ where: { id }, data });
    if (plan.channels.delete.length) await tx.channel.deleteMany({ where: { id: { in: plan.channels.delete } } });
    for (const { id, ...data } of plan.channels.update) await tx.channel.update({ where: { id }, data });
    if (plan.channels.create.length) await tx.channel.createMany({ data: plan.channels.create });
    if (plan.plans.create.length) await tx.plan.createMany({ data: plan.plans.create });
    for (const { name, ...data } of plan.plans.update) await tx.plan.update({ where: { name }, data });
  }

  private async writeAccounts(tx: Tx, plan: ApplyPlan): Promise<void> {
    // A JSON column takes DbNull, not null, for "no limits" and "no cache".
    const withLimits = <T extends { limits: TenantLimitsConfig | null; cache: CacheSettings | null }>(row: T) => ({
      ...row,
      limits: row.limits ?? Prisma.DbNull,
      cache: row.cache ?? Prisma.DbNull,
    });
    if (plan.tenants.create.length) await tx.tenant.createMany({ data: plan.tenants.create.map(withLimits) });
    for (const { slug, ...data } of plan.tenants.update) await tx.tenant.update({ where: { slug }, data: withLimits(data) });
    for (const { slug, kind, planName, expiresAt } of plan.subscriptions) {
      const tenant = await tx.tenant.findUniqueOrThrow({ where: { slug }, select: { id: true } });
      const planRow = planName ? await tx.plan.findUniqueOrThrow({ where: { name: planName } }) : null;
      // The subscription keeps its own copy of the plan's quota, so later plan edits do not rewrite running periods.
      const data = {
        kind,
        planId: planRow?.id ?? null,
        expiresAt,
        quotaMicros: planRow?.quotaMicros ?? null,
        quotaRequests: planRow?.quotaRequests ?? null,
        periodSeconds: planRow?.periodSeconds ?? null,
      };
      await tx.subscription.upsert({ where: { tenantId: tenant.id }, create: { tenantId: tenant.id, ...data }, update: data });
    }
    for (const { slug, add, remove } of plan.grants) {
      const tenant = await tx.tenant.findUniqueOrThrow({ where: { slug }, select: { id: true } });
      if (remove.length) await tx.tenantModel.deleteMany({ where: { tenantId: tenant.id, modelId: { in: remove } } });
      if (add.length) await tx.tenantModel.createMany({ data: add.map((modelId) => ({ tenantId: tenant.id, modelId })) });
    }
  }

  /** Listed projects and their budgets, after the tenants they belong to exist. */
  private async writeProjects(tx: Tx, plan: ApplyPlan): Promise<void> {
    const tenantIds = new Map<string, string>();
    const tenantIdOf = async (slug: string): Promise<string> => {
      const known = tenantIds.get(slug);
      if (known) return known;
      const { id } = await tx.tenant.findUniqueOrThrow({ where: { slug }, select: { id: true } });
      tenantIds.set(slug, id);
      return id;
    };
    for (const { slug, name, ...lists } of [...plan.projects.create, ...plan.projects.update]) {
      const tenantId = await tenantIdOf(slug);
      // An upsert: the tenant's `default` project is also made on first use, outside applies.
      await tx.project.upsert({ where: { tenantId_name: { tenantId, name } }, create: { tenantId, name, ...lists }, update: lists });
    }
    for (const { slug, name, ...values } of plan.projectBudgets.set) {
      const tenantId = await tenantIdOf(slug);
      const project = await tx.project.findUniqueOrThrow({ where: { tenantId_name: { tenantId, name } }, select: { id: true } });
      await tx.budget.upsert({ where: { projectId: project.id }, create: { tenantId, scope: 'project', projectId: project.id, ...values }, update: values });
    }
    for (const { slug, name } of plan.projectBudgets.remove) {
      await tx.budget.deleteMany({ where: { scope: 'project', project: { tenantId: await tenantIdOf(slug), name } } });
    }
  }
}
