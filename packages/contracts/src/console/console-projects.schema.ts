import { z } from 'zod';
import { ProjectName } from '../accounts/project.schema';
import { BudgetAlertAt, BudgetMode, BudgetPeriod, BudgetView, DEFAULT_ALERT_AT } from '../budgets/budget.schema';
import { InputSlug } from '../inputs/input-text.schema';
import { MicrosString, MoneyAmount } from '../money';
import { ConsoleEmail, ConsoleRole } from './console-people.schema';
import { ProjectRight } from './project-rights';

/** A budget's spend in its current period without its settings: what a viewer sees. */
export const BudgetSpend = BudgetView.pick({ period: true, used: true, usedMicros: true, periodStart: true, resetsAt: true });
export type BudgetSpend = z.infer<typeof BudgetSpend>;

/** `spend`: null without a budget; `budget`: null without one, or when the person may not see budgets. */
const Budgeted = z.object({ spend: BudgetSpend.nullable(), budget: BudgetView.nullable() });

export const ConsoleProjectKey = Budgeted.extend({
  id: z.string(),
  name: z.string(),
  masked: z.string(),
  status: z.enum(['active', 'revoked']),
});
export type ConsoleProjectKey = z.infer<typeof ConsoleProjectKey>;

/** A person given a role on the project, beside their tenant role. */
export const ConsoleProjectMember = z.object({ email: z.string(), role: ConsoleRole, tenantRole: ConsoleRole });
export type ConsoleProjectMember = z.infer<typeof ConsoleProjectMember>;

export const ConsoleProject = Budgeted.extend({
  name: z.string(),
  /** The signed-in person's role here: the higher of their tenant role and their project role. */
  role: ConsoleRole,
  rights: z.array(ProjectRight),
  keys: z.array(ConsoleProjectKey),
  members: z.array(ConsoleProjectMember),
});
export type ConsoleProject = z.infer<typeof ConsoleProject>;

export const ConsoleProjectList = z.object({ data: z.array(ConsoleProject) });
export type ConsoleProjectList = z.infer<typeof ConsoleProjectList>;

/** A budget as the console's editor sends it. */
export const ConsoleBudgetRequest = z
  .object({
    amount: MoneyAmount,
    period: BudgetPeriod,
    mode: BudgetMode.default('hard'),
    alertAt: BudgetAlertAt.default(DEFAULT_ALERT_AT),
  })
  .strict();
export type ConsoleBudgetRequest = z.input<typeof ConsoleBudgetRequest>;

export const ConsoleProjectPath = z.object({ project: ProjectName }).strict();

/** Over NATS: who asks (their rights are read from the database), in which tenant. */
export const ConsoleProjectsMessage = z.object({ tenant: InputSlug, userId: z.uuid() });
export type ConsoleProjectsMessage = z.infer<typeof ConsoleProjectsMessage>;

/** A key by id or a project by name, changed on behalf of a person whose project rights are checked. */
export const ConsoleBudgetClearMessage = ConsoleProjectsMessage.extend({ key: z.uuid().optional(), project: ProjectName.optional() }).refine(
  (m) => (m.key === undefined) !== (m.project === undefined),
  { message: 'name a key or a project', path: ['key'] },
);
export type ConsoleBudgetClearMessage = z.infer<typeof ConsoleBudgetClearMessage>;

export const ConsoleBudgetSetMessage = ConsoleProjectsMessage.extend({
  key: z.uuid().optional(),
  project: ProjectName.optional(),
  amountMicros: MicrosString,
  period: BudgetPeriod,
  mode: BudgetMode,
  alertAt: BudgetAlertAt,
}).refine((m) => (m.key === undefined) !== (m.project === undefined), { message: 'name a key or a project', path: ['key'] });
export type ConsoleBudgetSetMessage = z.infer<typeof ConsoleBudgetSetMessage>;

/** The operator console: every project of a tenant, seen as its owner would. */
export const ConsoleTenantProjectsMessage = z.object({ tenant: InputSlug });

/** Gives a person of the tenant a role on one project; `role: null` takes it away. */
export const ConsoleProjectGrantRequest = z.object({ email: ConsoleEmail, role: ConsoleRole.nullable() }).strict();
export const ProjectGrantRequest = ConsoleProjectGrantRequest.extend({ tenant: InputSlug, project: ProjectName }).strict();
export type ProjectGrantRequest = z.infer<typeof ProjectGrantRequest>;
export const ProjectGrantView = z.object({ tenant: z.string(), project: z.string(), email: z.string(), role: ConsoleRole.nullable() });
export type ProjectGrantView = z.infer<typeof ProjectGrantView>;

export const ConsoleBudgetCleared = z.object({ cleared: z.boolean() });
