import { BillingMode, Prisma, PrismaClient } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

const withTenant = { tenant: { select: { slug: true } }, project: { select: { name: true } } } as const;

export interface NewKey {
  tenantId: string;
  projectId: string;
  name: string;
  kind: BillingMode;
  hash: string;
  masked: string;
  models?: string[];
  denyModels?: string[];
  routes?: string[];
  expiresAt?: Date | null;
}

@Injectable()
export class KeysRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** The one query behind a cache miss at the edge: key, tenant and subscription together. */
  findForResolve(hash: string) {
    return this.prisma.apiKey.findUnique({
      where: { hash },
      include: {
        tenant: { include: { subscription: true } },
        budget: true,
        project: { select: { name: true, budget: true, models: true, denyModels: true } },
      },
    });
  }

  findById(id: string) {
    return this.prisma.apiKey.findUnique({ where: { id }, include: withTenant });
  }

  create(key: NewKey) {
    return this.prisma.apiKey.create({ data: key, include: withTenant });
  }

  replaceSecret(id: string, hash: string, masked: string) {
    return this.prisma.apiKey.update({ where: { id }, data: { hash, masked, rotatedAt: new Date() }, include: withTenant });
  }

  revoke(id: string) {
    return this.prisma.apiKey.update({ where: { id }, data: { status: 'revoked', revokedAt: new Date() }, include: withTenant });
  }

  /** The key with its own limits and its tenant's (tenant-wide and the default for each key). */
  findWithLimits(id: string) {
    return this.prisma.apiKey.findUnique({ where: { id }, select: { id: true, hash: true, limits: true, tenant: { select: { slug: true, limits: true } } } });
  }

  setLimits(id: string, limits: Prisma.InputJsonValue | typeof Prisma.DbNull) {
    return this.prisma.apiKey.update({ where: { id }, data: { limits }, select: { id: true } });
  }

  listByTenant(tenantId: string) {
    return this.prisma.apiKey.findMany({ where: { tenantId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: withTenant });
  }
}

export type KeyRecord = NonNullable<Awaited<ReturnType<KeysRepository['findById']>>>;
export type ResolvableKey = NonNullable<Awaited<ReturnType<KeysRepository['findForResolve']>>>;
