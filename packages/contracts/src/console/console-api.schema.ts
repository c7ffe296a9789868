import { z } from 'zod';
import { BillingMode, KeyCreated, KeyView } from '../accounts/key.schema';
import { Capability } from '../accounts/catalog.schema';
import { BalanceView, TenantView } from '../admin/admin.schema';
import { MoneyAmount } from '../money';
import { WebhookSecretView } from '../webhooks/webhook.schema';
import { ConsoleRole } from './console-people.schema';
import { ConsoleSessionKind } from './console-session.schema';
import { isPrintable } from '../inputs/input-text.schema';

/** Shapes of the console's own API (`/console/api/...`), as the browser sends and receives them. */

/** Which console a listener serves: the public one (tenants) or the admin one (operators). */
export const ConsoleSide = z.enum(['tenant', 'operator']);
export type ConsoleSide = z.infer<typeof ConsoleSide>;

/** Header the page sends its CSRF token in, on every state-changing call. */
export const CSRF_HEADER = 'x-csrf-token';

/** The signed-in person, and the token their page must send back on every state-changing call. */
export const ConsoleMe = z.object({
  kind: ConsoleSessionKind,
  email: z.string().nullable(),
  role: ConsoleRole.nullable(),
  tenant: z.string().nullable(),
  csrfToken: z.string(),
  expiresAt: z.string(),
});
export type ConsoleMe = z.infer<typeof ConsoleMe>;

export const ConsoleErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), param: z.string().nullish(), retryAfterSeconds: z.number().int().nullish() }),
});
export type ConsoleErrorBody = z.infer<typeof ConsoleErrorBody>;

export const OperatorSignInRequest = z.object({ token: z.string().min(1, 'enter the admin token').max(4096) }).strict();

/** A tenant's keys, masked. */
export const ConsoleKeyList = z.object({ data: z.array(KeyView) });
/** A key's secret, shown once: at creation and at regeneration. */
export const ConsoleKeySecret = KeyCreated;
export const ConsoleKeyView = KeyView;
/** The webhook signing secret, shown once at rotation. */
export const ConsoleWebhookSecret = WebhookSecretView;
export const ConsoleBalance = BalanceView;
export const ConsoleTenant = TenantView;

export const ConsoleKeyCreateRequest = z
  .object({ name: z.string().trim().min(1, 'name the key').max(64).refine(isPrintable, 'control characters are not allowed') })
  .strict();

/** Prices as decimal amounts per unit named by the field; absent where the model has none. */
export const ConsolePrices = z.object({
  inputPerMTok: z.string().optional(),
  outputPerMTok: z.string().optional(),
  cachedInputPerMTok: z.string().optional(),
  cacheWritePerMTok: z.string().optional(),
  cacheHitPerMTok: z.string().optional(),
  perImage: z.string().optional(),
  perSecond: z.string().optional(),
  perTask: z.string().optional(),
});
export type ConsolePrices = z.infer<typeof ConsolePrices>;

export const ConsoleModel = z.object({
  id: z.string(),
  displayName: z.string(),
  capability: Capability,
  prices: ConsolePrices,
  /** The tenant's subscription sets its own price for this model. */
  overridden: z.boolean(),
});
export type ConsoleModel = z.infer<typeof ConsoleModel>;
export const ConsoleModelList = z.object({ data: z.array(ConsoleModel) });
export const ConsoleModelsRequest = z.object({ tenantId: z.uuid() });

export const ConsoleTenantRow = z.object({
  slug: z.string(),
  name: z.string(),
  billing: BillingMode,
  plan: z.string().nullable(),
  expires: z.string().nullable(),
  /** Decimal; the stored balance, which the live one is written back to. */
  balance: z.string(),
  keys: z.number().int(),
  createdAt: z.string(),
});
export type ConsoleTenantRow = z.infer<typeof ConsoleTenantRow>;

export const ConsoleTenantsRequest = z
  .object({
    offset: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    search: z.string().trim().max(64).refine(isPrintable, 'control characters are not allowed').optional(),
  })
  .strict();
export type ConsoleTenantsRequest = z.input<typeof ConsoleTenantsRequest>;
export const ConsoleTenantPage = z.object({ data: z.array(ConsoleTenantRow), total: z.number().int(), offset: z.number().int(), limit: z.number().int() });
export type ConsoleTenantPage = z.infer<typeof ConsoleTenantPage>;

export const ConsoleTopupRequest = z.object({ amount: MoneyAmount }).strict();
