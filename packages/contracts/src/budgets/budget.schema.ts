import { z } from 'zod';
import { ProjectName } from '../accounts/project.schema';
import { InputSlug } from '../inputs/input-text.schema';
import { MicrosString, MoneyAmount } from '../money';

/** How long a budget's counter runs before it starts again (UTC); `total` never starts again. */
export const BudgetPeriod = z.enum(['day', 'week', 'month', 'total']);
export type BudgetPeriod = z.infer<typeof BudgetPeriod>;

/** `hard` refuses a request whose worst case does not fit what is left; `soft` only alerts. */
export const BudgetMode = z.enum(['hard', 'soft']);
export type BudgetMode = z.infer<typeof BudgetMode>;

export const BudgetScope = z.enum(['key', 'project']);
export type BudgetScope = z.infer<typeof BudgetScope>;

/** Shares of the amount (percent) at which an alert goes out, once per period each. */
export const BudgetAlertAt = z
  .array(z.number().int().min(1, 'a share of at least 1 %').max(1000, 'a share of at most 1000 %'))
  .max(10, 'at most 10 thresholds')
  .refine((shares) => new Set(shares).size === shares.length, 'each threshold once');
export const DEFAULT_ALERT_AT = [50, 80, 100];

/** One budget as a request carries it: enough to hold against it in the same step as the balance. */
export const BudgetRule = z.object({
  scope: BudgetScope,
  /** The key's or the project's id. */
  scopeId: z.string().min(1),
  /** How refusals name it: the key's name or the project's. */
  name: z.string(),
  amountMicros: MicrosString,
  period: BudgetPeriod,
  mode: BudgetMode,
});
export type BudgetRule = z.infer<typeof BudgetRule>;

/** Whose budget: a key by id, or a tenant's project by name. */
const BudgetTarget = z
  .object({
    key: z.uuid().optional(),
    tenant: InputSlug.optional(),
    project: ProjectName.optional(),
  })
  .strict();

function exactlyOneTarget(target: { key?: string; tenant?: string; project?: string }, ctx: z.RefinementCtx): void {
  if (target.key !== undefined && (target.tenant !== undefined || target.project !== undefined)) {
    ctx.addIssue({ code: 'custom', path: ['key'], message: 'name either a key or a tenant and project, not both' });
  } else if (target.key === undefined && (target.tenant === undefined || target.project === undefined)) {
    ctx.addIssue({ code: 'custom', path: [target.tenant === undefined ? 'tenant' : 'project'], message: 'name a key, or a tenant and its project' });
  }
}

export const BudgetShowRequest = BudgetTarget.superRefine(exactlyOneTarget);
export type BudgetShowRequest = z.infer<typeof BudgetShowRequest>;

export const BudgetSetRequest = BudgetTarget.extend({
  amount: MoneyAmount,
  period: BudgetPeriod,
  mode: BudgetMode.default('hard'),
  alertAt: BudgetAlertAt.default(DEFAULT_ALERT_AT),
})
  .strict()
  .superRefine(exactlyOneTarget);
export type BudgetSetRequest = z.input<typeof BudgetSetRequest>;

/** Over NATS: the amount in micro-units, and for the tenant console the tenant the target must belong to. */
export const BudgetSetMessage = z.object({
  key: z.uuid().optional(),
  tenant: InputSlug.optional(),
  project: ProjectName.optional(),
  amountMicros: MicrosString,
  period: BudgetPeriod,
  mode: BudgetMode,
  alertAt: BudgetAlertAt,
  /** Set by the tenant console: the target must belong to this tenant. */
  owner: InputSlug.optional(),
});
export type BudgetSetMessage = z.infer<typeof BudgetSetMessage>;

export const BudgetShowMessage = z.object({
  key: z.uuid().optional(),
  tenant: InputSlug.optional(),
  project: ProjectName.optional(),
  owner: InputSlug.optional(),
});
export type BudgetShowMessage = z.infer<typeof BudgetShowMessage>;

export const BudgetView = z.object({
  scope: BudgetScope,
  tenant: z.string(),
  /** The key's id (key budgets) and name. */
  key: z.string().nullable(),
  project: z.string(),
  amount: z.string(),
  amountMicros: MicrosString,
  period: BudgetPeriod,
  mode: BudgetMode,
  alertAt: z.array(z.number().int()),
  /** Spent (and held by requests still running) in the current period. */
  used: z.string(),
  usedMicros: MicrosString,
  left: z.string(),
  leftMicros: MicrosString,
  periodStart: z.string().nullable(),
  /** When the counter starts again; null for `total`. */
  resetsAt: z.string().nullable(),
});
export type BudgetView = z.infer<typeof BudgetView>;

/** `budget: null`: the target has no budget. */
export const BudgetShowReply = z.object({ budget: BudgetView.nullable() });
export type BudgetShowReply = z.infer<typeof BudgetShowReply>;

/** The budgets a key's requests are held against (its own, its project's): for work that runs after its request (batch lines). */
export const KeyBudgetsRequest = z.object({ keyId: z.string().min(1) }).strict();
export const KeyBudgetsReply = z.array(BudgetRule);

/** Every budget of a tenant (its keys' and its projects'), for the console's Projects page. */
export const BudgetListRequest = z.object({ tenant: InputSlug }).strict();
export type BudgetListRequest = z.infer<typeof BudgetListRequest>;
export const BudgetListReply = z.array(BudgetView);
export const BudgetList = z.object({ data: BudgetListReply });
export type BudgetList = z.infer<typeof BudgetList>;

/** Removing a budget: the target is then limited by its tenant's balance (and its project's budget) alone. */
export const BudgetClearReply = z.object({ cleared: z.boolean() });
export type BudgetClearReply = z.infer<typeof BudgetClearReply>;
