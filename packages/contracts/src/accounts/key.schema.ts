import { z } from 'zod';
import { KeyLimits } from '../billing/limits.schema';
import { CacheSettings } from '../cache/response-cache.schema';
import { BudgetRule } from '../budgets/budget.schema';
import { KeyModels } from './key-models';
import { KeyRoutes } from './key-routes';
import { ProjectModelRules } from './model-rules';

export const BillingMode = z.enum(['payg', 'plan', 'custom']);
export type BillingMode = z.infer<typeof BillingMode>;

/** Key prefixes by kind; the longest prefixes are checked first. */
export const KEY_PREFIX: Record<BillingMode, string> = { plan: 'sk-plan-', custom: 'sk-custom-', payg: 'sk-' };

export const KeyResolveRequest = z.object({ keyHash: z.string().regex(/^[0-9a-f]{64}$/) });
export type KeyResolveRequest = z.infer<typeof KeyResolveRequest>;

/** What the edge caches per key: enough to authorize, bill and scope a request without Postgres. */
export const KeyContext = z.object({
  keyId: z.string(),
  keyName: z.string(),
  kind: BillingMode,
  tenantId: z.string(),
  tenantSlug: z.string(),
  billing: BillingMode,
  /** ISO time after which the key stops working (its own expiry or its subscription's, the sooner), or null. */
  expiresAt: z.string().nullable(),
  /** What ends the key at `expiresAt`: its own expiry or its tenant's subscription. */
  expiredBy: z.enum(['key', 'subscription']).nullable().default(null),
  /** The models the key may use (ids and `*` patterns); empty: every model its tenant sees. */
  models: KeyModels.default([]),
  /** The budgets a request of the key is held against: the key's own and its project's. */
  budgets: z.array(BudgetRule).default([]),
  /** Models the key may not use even where its model list admits them; absent: none. */
  denyModels: KeyModels.optional(),
  /** The routes the key may call (route ids, families, `*` patterns); absent or empty: every route. */
  routes: KeyRoutes.optional(),
  /** The key's project and its model lists, which bind the key too. */
  project: ProjectModelRules.optional(),
  featureControls: z.record(z.string(), z.boolean()),
  /** Rate limits of the key and of its tenant; absent or both null means the edge skips limiting. */
  limits: KeyLimits.optional(),
  /** The key's response cache (its tenant's, narrowed by the key's own); absent means off. */
  cache: CacheSettings.optional(),
});
export type KeyContext = z.infer<typeof KeyContext>;

/** `null` when the key is unknown or revoked. */
export const KeyResolveReply = KeyContext.nullable();
export type KeyResolveReply = z.infer<typeof KeyResolveReply>;

export const KeyView = z.object({
  id: z.string(),
  name: z.string(),
  kind: BillingMode,
  masked: z.string(),
  status: z.enum(['active', 'revoked']),
  tenant: z.string(),
  project: z.string(),
  /** The models the key may use; empty: every model its tenant sees. */
  models: z.array(z.string()),
  /** The models the key may not use. */
  deny_models: z.array(z.string()),
  /** The routes the key may call; empty: every route. */
  routes: z.array(z.string()),
  expires_at: z.string().nullable(),
  created_at: z.string(),
});
export type KeyView = z.infer<typeof KeyView>;

export const KeyCreated = z.object({ id: z.string(), key: z.string(), masked: z.string(), kind: BillingMode, tenant: z.string(), project: z.string() });
export type KeyCreated = z.infer<typeof KeyCreated>;

export const InvalidationEvent = z.object({
  keyHashes: z.array(z.string()).default([]),
  tenantIds: z.array(z.string()).default([]),
  /** The catalog or visibility changed: drop every cached model list. */
  catalog: z.boolean().default(false),
  /** Hashes of console session tokens that ended (signed out, revoked, password changed). */
  sessions: z.array(z.string()).default([]),
});
export type InvalidationEvent = z.infer<typeof InvalidationEvent>;
