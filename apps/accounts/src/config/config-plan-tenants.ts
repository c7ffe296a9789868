import type { GatewayConfig } from '@gateway/contracts';
import { changedFields, invalidAt, record, rejectDuplicates, sameValue } from './config-diff';
import { planProjects } from './config-plan-projects';
import type { ApplyPlan, CurrentState, CurrentTenant, PlanRow, SubscriptionRow, TenantRow } from './config-plan.types';

type TenantConfig = GatewayConfig['tenants'][number];

const PLAN_FIELDS = ['quotaMicros', 'quotaRequests', 'periodSeconds'] as const;
const TENANT_FIELDS = ['name', 'billing', 'featureControls', 'limits', 'cache'] as const;
const SUBSCRIPTION_FIELDS = ['kind', 'planName', 'expiresAt'] as const;

export function planPlans(config: GatewayConfig, state: CurrentState, plan: ApplyPlan): void {
  rejectDuplicates(
    config.plans,
    (p) => p.name,
    (i) => `plans[${i}].name`,
    'plan',
  );
  for (const item of config.plans) {
    const desired: PlanRow = {
      name: item.name,
      quotaMicros: 'credit' in item.quota ? item.quota.credit : null,
      quotaRequests: 'requests' in item.quota ? item.quota.requests : null,
      periodSeconds: item.period,
    };
    const current = state.plans.get(item.name);
    if (!current) {
      plan.plans.create.push(desired);
      record(plan, `plan ${item.name}`, 'created');
      continue;
    }
    const changed = changedFields(current, desired, PLAN_FIELDS);
    if (changed.length) plan.plans.update.push(desired);
    record(plan, `plan ${item.name}`, changed);
  }
}

function periodOf(name: string, config: GatewayConfig, state: CurrentState): number {
  return config.plans.find((p) => p.name === name)?.period ?? state.plans.get(name)!.periodSeconds;
}

/**
 * Plan and custom tenants (or any tenant given an expiry) have a subscription. Without an expiry in the file
 * the stored one is kept, and a new plan subscription runs for one period of its plan.
 */
function desiredSubscription(
  tenant: TenantConfig,
  current: CurrentTenant | undefined,
  config: GatewayConfig,
  state: CurrentState,
  now: Date,
): SubscriptionRow | null {
  if (tenant.billing === 'payg' && !tenant.expires) return null;
  const planName = tenant.plan ?? null;
  let expiresAt = tenant.expires ? new Date(tenant.expires) : (current?.subscription?.expiresAt ?? null);
  if (!expiresAt && planName) expiresAt = new Date(now.getTime() + periodOf(planName, config, state) * 1000);
  return { kind: tenant.billing, planName, expiresAt };
}

function validateTenant(tenant: TenantConfig, index: number, config: GatewayConfig, state: CurrentState, knownModels: Set<string>): void {
  if (tenant.billing === 'plan' && !tenant.plan) throw invalidAt(`tenants[${index}].plan`, 'billing "plan" needs a plan name');
  if (tenant.billing === 'payg' && tenant.plan) throw invalidAt(`tenants[${index}].plan`, 'pay-as-you-go tenants take no plan');
  if (tenant.plan && !state.plans.has(tenant.plan) && !config.plans.some((p) => p.name === tenant.plan)) {
    throw invalidAt(`tenants[${index}].plan`, `plan "${tenant.plan}" is not defined in the file or the database`);
  }
  tenant.models.forEach((id, i) => {
    if (!knownModels.has(id)) throw invalidAt(`tenants[${index}].models[${i}]`, `model "${id}" is not defined in the file or the database`);
  });
}

function planGrants(tenant: TenantConfig, current: CurrentTenant | undefined, plan: ApplyPlan): string[] {
  const wanted = new Set(tenant.models);
  const held = new Set(current?.grants ?? []);
  const add = [...wanted].filter((id) => !held.has(id)).sort();
  const remove = [...held].filter((id) => !wanted.has(id)).sort();
  if (add.length || remove.length) plan.grants.push({ slug: tenant.slug, add, remove });
  return [...add.map((id) => `+model ${id}`), ...remove.map((id) => `-model ${id}`)];
}

export function planTenants(config: GatewayConfig, state: CurrentState, plan: ApplyPlan, now: Date): void {
  rejectDuplicates(
    config.tenants,
    (t) => t.slug,
    (i) => `tenants[${i}].slug`,
    'tenant',
  );
  const knownModels = new Set([...state.models.keys(), ...config.models.map((m) => m.id)]);
  config.tenants.forEach((tenant, index) => {
    validateTenant(tenant, index, config, state, knownModels);
    const current = state.tenants.get(tenant.slug);
    const desired: TenantRow = {
      slug: tenant.slug,
      name: tenant.name ?? current?.name ?? tenant.slug,
      billing: tenant.billing,
      featureControls: tenant.featureControls,
      limits: tenant.limits ?? current?.limits ?? null,
      cache: tenant.cache ?? current?.cache ?? null,
    };
    const subscription = desiredSubscription(tenant, current, config, state, now);
    const subscriptionChanged =
      subscription !== null && !(current?.subscription && SUBSCRIPTION_FIELDS.every((f) => sameValue(current.subscription![f], subscription[f])));
    if (subscriptionChanged) plan.subscriptions.push({ slug: tenant.slug, ...subscription });
    const grantLabels = planGrants(tenant, current, plan);
    let labels: string[] = [];
    if (!current) {
      plan.tenants.create.push(desired);
      record(plan, `tenant ${tenant.slug}`, 'created');
    } else {
      const changed = changedFields(current, desired, TENANT_FIELDS);
      if (changed.length) plan.tenants.update.push(desired);
      labels = [...changed, ...(subscriptionChanged ? ['subscription'] : []), ...grantLabels];
      record(plan, `tenant ${tenant.slug}`, labels);
    }
    // Keys carry their project's lists and budget, so a project change drops the tenant's cached keys too.
    const projectsChanged = planProjects(tenant, index, current, plan);
    if (!current || labels.length || projectsChanged) plan.touchedTenants.push(tenant.slug);
  });
}
