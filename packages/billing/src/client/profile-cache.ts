import { BillingProfile, InvalidationEvent, SUBJECTS } from '@gateway/contracts';
import { ReadThroughCache, type NatsBus } from '@gateway/platform';
import type { Subscription } from 'nats';

/** Tenants are named by authenticated keys only. */
const MAX_TENANTS = 10_000;

/**
 * Tenants' billing profiles (subscription quota, period, expiry, price overrides) asked of accounts
 * once per tenant, dropped by the invalidation broadcast accounts sends when a subscription changes.
 */
export class ProfileCache {
  private readonly entries: ReadThroughCache<BillingProfile>;
  private subscription?: Subscription;

  constructor(
    private readonly bus: NatsBus,
    ttlMs = 60_000,
  ) {
    this.entries = new ReadThroughCache({
      load: (tenantId) => this.bus.request(SUBJECTS.accounts.billing.profile, { tenantId }, BillingProfile),
      ttlMs,
      maxEntries: MAX_TENANTS,
    });
  }

  follow(): void {
    this.subscription = this.bus.subscribe(SUBJECTS.accounts.invalidated, (payload) => {
      const event = InvalidationEvent.safeParse(payload);
      if (!event.success) return;
      this.entries.drop(event.data.tenantIds);
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
  }

  get(tenantId: string): BillingProfile | Promise<BillingProfile> {
    return this.entries.get(tenantId);
  }
}
