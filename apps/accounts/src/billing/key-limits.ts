import { RateLimits, TenantLimitsConfig, type KeyLimits } from '@gateway/contracts';

/** The limits an edge enforces for a key: its own (or its tenant's per-key default) and its tenant's. */
export function keyLimits(key: { limits: unknown; tenant: { limits: unknown } }): KeyLimits | undefined {
  const tenant = TenantLimitsConfig.safeParse(key.tenant.limits ?? undefined);
  const own = RateLimits.safeParse(key.limits ?? undefined);
  const { perKey, ...tenantWide } = tenant.success ? tenant.data : { perKey: undefined };
  const forKey = own.success && key.limits ? own.data : (perKey ?? null);
  const forTenant = Object.keys(tenantWide).length ? tenantWide : null;
  if (!forKey && !forTenant) return undefined;
  return { key: forKey, tenant: forTenant };
}
