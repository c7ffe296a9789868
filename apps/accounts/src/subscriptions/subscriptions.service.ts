import type { SubscriptionView } from '@gateway/contracts';
import type { z } from 'zod';
import { Inject, Injectable } from '@nestjs/common';
import { InvalidationPublisher } from '../events/invalidation.publisher';
import { TenantsService } from '../tenants/tenants.service';
import { SubscriptionsRepository } from './subscriptions.repository';

type SubscriptionViewData = z.infer<typeof SubscriptionView>;

@Injectable()
export class SubscriptionsService {
  constructor(
    @Inject(SubscriptionsRepository) private readonly subscriptions: SubscriptionsRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(InvalidationPublisher) private readonly invalidation: InvalidationPublisher,
  ) {}

  async setExpiry(tenantSlug: string, expires: string): Promise<SubscriptionViewData> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    const subscription = await this.subscriptions.setExpiry(tenant.id, tenant.billing, new Date(expires));
    // Edges cache each key with its expiry: drop the tenant's keys everywhere so the new date applies at once.
    this.invalidation.publish({ tenantIds: [tenant.id] });
    return {
      tenant: tenant.slug,
      kind: subscription.kind,
      plan: subscription.plan?.name ?? null,
      expires: subscription.expiresAt?.toISOString() ?? null,
    };
  }
}
