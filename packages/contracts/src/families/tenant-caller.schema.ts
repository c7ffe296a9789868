import { z } from 'zod';
import { BillingMode } from '../accounts/key.schema';
import { KeyModels } from '../accounts/key-models';
import { ProjectModelRules } from '../accounts/model-rules';
import { BudgetRule } from '../budgets/budget.schema';

/** Who is calling, on every family's payload: enough for a service to authorize, route, bill and record usage. */
export const TenantCaller = z.object({
  /** The server's id of the request: every internal key derives from it. */
  requestId: z.string().min(1),
  /** The client's own x-request-id, validated at the edge: only for correlation, never a key. */
  clientRequestId: z.string().min(1).max(128).optional(),
  tenantId: z.string().min(1),
  keyId: z.string().min(1),
  keyKind: BillingMode,
  /** Route id from the route table, e.g. `oaic.chat`. */
  route: z.string().min(1),
  /** The key's model list (ids and `*` patterns), when it has one: a model outside it is refused. */
  models: KeyModels.optional(),
  /** The budgets the request is held against (its key's, its project's), when it has any. */
  budgets: z.array(BudgetRule).optional(),
  /** The key's deny-list, when it has one: a model matching it is refused. */
  denyModels: KeyModels.optional(),
  /** The key's project, when it has a model list or a deny-list: both bind the key too. */
  project: ProjectModelRules.optional(),
});
export type TenantCaller = z.infer<typeof TenantCaller>;
