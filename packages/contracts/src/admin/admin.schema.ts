import { z } from 'zod';
import { BillingMode } from '../accounts/key.schema';
import { ProjectName } from '../accounts/project.schema';
import { KeyModels } from '../accounts/key-models';
import { KeyRouteList } from './key-route-list';
import { MicrosString, MoneyAmount } from '../money';
import { InputSlug, InputTime, printableText } from '../inputs/input-text.schema';

const Slug = InputSlug;

export const TenantCreateRequest = z
  .object({
    slug: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, 'lowercase letters, digits, ".", "_" or "-"'),
    name: printableText(256).min(1).optional(),
    billing: BillingMode.default('payg'),
    plan: printableText(64).optional(),
    expires: InputTime.optional(),
  })
  .strict();
export type TenantCreateRequest = z.input<typeof TenantCreateRequest>;

export const TenantView = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  billing: BillingMode,
  plan: z.string().nullable(),
  expires: z.string().nullable(),
  featureControls: z.record(z.string(), z.boolean()),
});
export type TenantView = z.infer<typeof TenantView>;

/**
 * A new key; without `project` it joins the tenant's `default` project, without `models` it may use every model its
 * tenant sees (less `denyModels`, and within its project's lists), without `routes` every route.
 */
export const KeyCreateRequest = z
  .object({
    tenant: Slug,
    name: printableText(64).min(1).optional(),
    project: ProjectName.optional(),
    models: KeyModels.min(1, 'name at least one model, or leave models out').optional(),
    /** Models the key may never use, even where `models` admits them. */
    denyModels: KeyModels.min(1, 'name at least one model, or leave denyModels out').optional(),
    /** The only routes the key may call: route ids, families or `*` patterns. */
    routes: KeyRouteList.optional(),
    /** When the key stops working, ISO 8601 with a zone; in the future. */
    expiresAt: z.iso
      .datetime({ offset: true })
      .refine((at) => Date.parse(at) > Date.now(), 'a time in the future')
      .optional(),
  })
  .strict();
export const KeyIdRequest = z.object({ id: z.uuid() }).strict();
/** Over NATS: a key by id, and for the tenant console the tenant it must belong to (another tenant's key is not found). */
export const KeyIdMessage = z.object({ id: z.uuid(), tenant: Slug.optional() }).strict();
export const KeyListRequest = z.object({ tenant: Slug }).strict();

export const SubscriptionSetRequest = z.object({ tenant: Slug, expires: InputTime }).strict();
export const SubscriptionView = z.object({ tenant: z.string(), kind: BillingMode, plan: z.string().nullable(), expires: z.string().nullable() });

export const BalanceTopupRequest = z.object({ tenant: Slug, amount: MoneyAmount }).strict();
/** The topup request as it travels over NATS: micro-units as a string. */
export const BalanceTopupMessage = z.object({ tenant: Slug, amountMicros: MicrosString });
export const BalanceShowRequest = z.object({ tenant: Slug }).strict();
export const BalanceView = z.object({ tenant: z.string(), balance: z.string(), balanceMicros: MicrosString });
export type BalanceView = z.infer<typeof BalanceView>;

export const ApplyResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  changes: z.array(z.string()),
});
export type ApplyResult = z.infer<typeof ApplyResult>;
