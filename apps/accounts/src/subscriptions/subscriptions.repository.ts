import { BillingMode, PrismaClient } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

@Injectable()
export class SubscriptionsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** Sets the expiry, creating the subscription (of the tenant's billing kind) if it has none yet. */
  setExpiry(tenantId: string, kind: BillingMode, expiresAt: Date) {
    return this.prisma.subscription.upsert({
      where: { tenantId },
      create: { tenantId, kind, expiresAt },
      update: { expiresAt },
      include: { plan: true },
    });
  }
}
