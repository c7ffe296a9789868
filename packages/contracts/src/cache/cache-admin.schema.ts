import { z } from 'zod';
import { InputSlug } from '../inputs/input-text.schema';
import { CACHE_MAX_TTL_SECONDS, CacheMode, CacheSettings } from './response-cache.schema';

/** `PUT /admin/cache` (`gatewayctl cache set`): a tenant's cache, or one key's narrowing of it (`mode: null` drops the key's own). */
export const CacheSetRequest = z
  .object({
    tenant: InputSlug,
    key: z.uuid().optional(),
    mode: CacheMode.nullable(),
    ttlSeconds: z.number().int().positive().max(CACHE_MAX_TTL_SECONDS).optional(),
    sampled: z.boolean().optional(),
  })
  .strict();
export type CacheSetRequest = z.infer<typeof CacheSetRequest>;

/** What is stored for the tenant and the key, and what a request with that key gets. */
export const CacheSetReply = z.object({
  tenant: z.string(),
  key: z.string().optional(),
  tenantSettings: CacheSettings,
  keySettings: CacheSettings.nullable().optional(),
  effective: CacheSettings,
});
export type CacheSetReply = z.infer<typeof CacheSetReply>;

/** `POST /admin/cache/purge` (`gatewayctl cache purge`): every cached answer of a tenant. */
export const CachePurgeRequest = z.object({ tenant: InputSlug }).strict();
export type CachePurgeRequest = z.infer<typeof CachePurgeRequest>;

/** `chat.cache.purge`: the chat service forgets the tenant's entries. */
export const CachePurgeMessage = z.object({ tenantId: z.string().min(1) }).strict();
export type CachePurgeMessage = z.infer<typeof CachePurgeMessage>;

/** `chat.cache.changed` (broadcast): one entry stored, or a tenant's entries purged; each chat process's index follows. */
export const CacheChangedEvent = z.discriminatedUnion('change', [
  z.object({ change: z.literal('stored'), tenantId: z.string().min(1), hash: z.string().min(1), expiresAt: z.number().int() }),
  z.object({ change: z.literal('purged'), tenantId: z.string().min(1) }),
]);
export type CacheChangedEvent = z.infer<typeof CacheChangedEvent>;

export const CachePurgeReply = z.object({ tenant: z.string(), purged: z.number().int().nonnegative() });
export type CachePurgeReply = z.infer<typeof CachePurgeReply>;

const ORDER: Record<CacheMode, number> = { off: 0, read_only: 1, read_write: 2 };

/** A key narrows its tenant's cache, never widens it: the lesser mode, the shorter ttl, sampled only if both allow. */
export function effectiveCache(tenant: CacheSettings | null, key: CacheSettings | null): CacheSettings {
  const base = tenant ?? CacheSettings.parse({});
  if (!key) return base;
  return {
    mode: ORDER[key.mode] < ORDER[base.mode] ? key.mode : base.mode,
    ttlSeconds: Math.min(base.ttlSeconds, key.ttlSeconds),
    sampled: base.sampled && key.sampled,
  };
}
