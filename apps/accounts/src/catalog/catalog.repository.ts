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

  withChannels(modelId: string) {
    return this.prisma.model.findUnique({
      where: { id: modelId },
      include: { channels: { include: { provider: true }, orderBy: [{ priority: 'asc' }, { id: 'asc' }] } },
    });
  }
}

export type ModelWithChannels = NonNullable<Awaited<ReturnType<CatalogRepository['withChannels']>>>;
