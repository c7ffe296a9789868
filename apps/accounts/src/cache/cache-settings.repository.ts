import { Prisma, PrismaClient } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

type StoredCache = Prisma.InputJsonValue | typeof Prisma.DbNull;

@Injectable()
export class CacheSettingsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  tenant(slug: string) {
    return this.prisma.tenant.findUnique({ where: { slug }, select: { id: true, slug: true, cache: true } });
  }

  key(tenantId: string, id: string) {
    return this.prisma.apiKey.findFirst({ where: { id, tenantId }, select: { id: true, hash: true, cache: true } });
  }

  setTenant(id: string, cache: StoredCache) {
    return this.prisma.tenant.update({ where: { id }, data: { cache }, select: { id: true } });
  }

  setKey(id: string, cache: StoredCache) {
    return this.prisma.apiKey.update({ where: { id }, data: { cache }, select: { id: true } });
  }
}
