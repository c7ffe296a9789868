import { BillingMode, PrismaClient, type PlanModel } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

export interface NewTenant {
  slug: string;
  name: string;
  billing: BillingMode;
  subscription: { plan: PlanModel | null; expiresAt: Date | null } | null;
}

const withSubscription = { subscription: { include: { plan: true } } } as const;

@Injectable()
export class TenantsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  findBySlug(slug: string) {
    return this.prisma.tenant.findUnique({ where: { slug }, include: withSubscription });
  }

  findById(id: string) {
    return this.prisma.tenant.findUnique({ where: { id }, include: withSubscription });
  }

  async page(query: { offset: number; limit: number; search?: string }) {
    const where = query.search
      ? { OR: [{ slug: { contains: query.search.toLowerCase() } }, { name: { contains: query.search, mode: 'insensitive' as const } }] }
      : {};
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.tenant.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
        skip: query.offset,
        take: query.limit,
        include: { ...withSubscription, balance: { select: { micros: true } }, _count: { select: { keys: true } } },
      }),
      this.prisma.tenant.count({ where }),
    ]);
    return { rows, total };
  }

  findPlanByName(name: string) {
    return this.prisma.plan.findUnique({ where: { name } });
  }

  create(tenant: NewTenant) {
    const sub = tenant.subscription;
    return this.prisma.tenant.create({
      data: {
        slug: tenant.slug,
        name: tenant.name,
        billing: tenant.billing,
        subscription: sub
          ? {
              create: {
                kind: tenant.billing,
                planId: sub.plan?.id ?? null,
                expiresAt: sub.expiresAt,
                quotaMicros: sub.plan?.quotaMicros ?? null,
                quotaRequests: sub.plan?.quotaRequests ?? null,
                periodSeconds: sub.plan?.periodSeconds ?? null,
              },
            }
          : undefined,
      },
      include: withSubscription,
    });
  }
}

export type TenantRecord = NonNullable<Awaited<ReturnType<TenantsRepository['findBySlug']>>>;
