import type { GatewayConfig } from '@gateway/contracts';
import { planModels, planProviders } from './config-plan-catalog';
import { planPlans, planTenants } from './config-plan-tenants';
import { emptyPlan, type ApplyPlan, type CurrentState } from './config-plan.types';

/**
 * Compares the file with what is stored and lists exactly the writes that make them equal.
 * Pure: the same file against the state it produced plans nothing.
 */
export function planApply(config: GatewayConfig, state: CurrentState, now: Date): ApplyPlan {
  const plan = emptyPlan();
  planProviders(config, state, plan);
  planModels(config, state, plan, now);
  planPlans(config, state, plan);
  planTenants(config, state, plan, now);
  return plan;
}
