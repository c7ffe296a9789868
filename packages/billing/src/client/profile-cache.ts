import { BILLING_SUBJECTS, BillingProfile, InvalidationEvent, SUBJECTS } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { Subscription } from 'nats';

interface Entry {
  value: Promise<BillingProfile>;
  expiresAt: number;
}

/**
 * Tenants' billing profiles (subscription quota, period, expiry, price overrides) asked of accounts
 * once per tenant, dropped by the invalidation broadcast accounts sends when a subscription changes.
 */
export class ProfileCache {
  private readonly entries = new Map<string, Entry>();
  private subscription?: Subscription;

  constructor(
    private readonly bus: NatsBus,
    private readonly ttlMs = 60_000,
  ) {}

  follow(): void {
    this.subscription = this.bus.subscribe(SUBJECTS.accounts.invalidated, (payload) => {
      const event = InvalidationEvent.safeParse(payload);
      if (!event.success) return;
      for (const tenantId of event.data.tenantIds) this.entries.delete(tenantId);
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
  }

  get(tenantId: string): Promise<BillingProfile> {
    const hit = this.entries.get(tenantId);
    if (hit && hit.expiresAt > Date.now()) return hit.value;
    const value = this.bus.request(BILLING_SUBJECTS.profile, { tenantId }, BillingProfile);
    this.entries.set(tenantId, { value, expiresAt: Date.now() + this.ttlMs });
    value.catch(() => {
      if (this.entries.get(tenantId)?.value === value) this.entries.delete(tenantId);
    });
    return value;
  }
}
