import { PrismaClient } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

@Injectable()
export class CatalogRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** Every public model plus the tenant's granted private ones, newest first. */
  visibleTo(tenantId: string) {
    return this.prisma.model.findMany({
      where: { OR: [{ isPublic: true }, { grants: { some: { tenantId } } }] },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      select: { id: true, displayName: true, capability: true, createdAt: true },
    });
  }

  /** The same models with their catalog prices, and the tenant's own prices where its subscription sets them. */
  async pricedFor(tenantId: string) {
    const [models, subscription] = await Promise.all([
      this.prisma.model.findMany({
        where: { OR: [{ isPublic: true }, { grants: { some: { tenantId } } }] },
        orderBy: [{ capability: 'asc' }, { id: 'asc' }],
        select: {
          id: true,
          displayName: true,
          capability: true,
          inputMicrosPerMTok: true,
          outputMicrosPerMTok: true,
          cachedInputMicrosPerMTok: true,
          cacheWriteMicrosPerMTok: true,
          cacheHitMicrosPerMTok: true,
          perImageMicros: true,
          perSecondMicros: true,
          perTaskMicros: true,
        },
      }),
      this.prisma.subscription.findUnique({ where: { tenantId }, select: { priceOverrides: true } }),
    ]);
    return { models, priceOverrides: subscription?.priceOverrides ?? {} };
  }

  withChannels(modelId: string) {
    return this.prisma.model.findUnique({
      where: { id: modelId },
      include: { channels: { include: { provider: true }, orderBy: [{ priority: 'asc' }, { id: 'asc' }] } },
    });
  }
}

export type ModelWithChannels = NonNullable<Awaited<ReturnType<CatalogRepository['withChannels']>>>;
