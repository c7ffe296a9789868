import { PrismaClient, type Prisma } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

/** The operator console's catalog: models page by page, each with its channels and their providers. */
@Injectable()
export class CatalogPageRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async page(offset: number, limit: number, search: string | undefined) {
    const where: Prisma.ModelWhereInput = search
      ? { OR: [{ id: { contains: search, mode: 'insensitive' } }, { displayName: { contains: search, mode: 'insensitive' } }] }
      : {};
    const [models, total] = await Promise.all([
      this.prisma.model.findMany({
        where,
        orderBy: [{ capability: 'asc' }, { id: 'asc' }],
        skip: offset,
        take: limit,
        select: {
          id: true,
          displayName: true,
          capability: true,
          isPublic: true,
          channels: {
            orderBy: [{ priority: 'asc' }, { id: 'asc' }],
            select: { id: true, providerId: true, upstreamModel: true, priority: true, weight: true, provider: { select: { protocol: true, baseUrl: true } } },
          },
        },
      }),
      this.prisma.model.count({ where }),
    ]);
    return { models, total };
  }
}
