import { ConsoleTenantsRequest, formatMicros, GatewayError, TenantCreateRequest, type ConsoleTenantPage, type TenantView } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { isUniqueViolation } from '../prisma/prisma-errors';
import { effectiveFeatureControls } from './feature-controls';
import { TenantsRepository, type TenantRecord } from './tenants.repository';

export function toTenantView(tenant: TenantRecord): TenantView {
  return {
    id: tenant.id,
    slug: tenant.slug,
    name: tenant.name,
    billing: tenant.billing,
    plan: tenant.subscription?.plan?.name ?? null,
    expires: tenant.subscription?.expiresAt?.toISOString() ?? null,
    featureControls: effectiveFeatureControls(tenant.featureControls),
  };
}

@Injectable()
export class TenantsService {
  constructor(@Inject(TenantsRepository) private readonly tenants: TenantsRepository) {}

  /** The tenant named by `slug`, or not_found naming the field the caller used for it. */
  async requireBySlug(slug: string, param = 'tenant'): Promise<TenantRecord> {
    const tenant = await this.tenants.findBySlug(slug);
    if (!tenant) throw GatewayError.notFound(`tenant "${slug}" does not exist`, param);
    return tenant;
  }

  findBySlug(slug: string): Promise<TenantRecord | null> {
    return this.tenants.findBySlug(slug);
  }

  async requireById(id: string): Promise<TenantRecord> {
    const tenant = await this.tenants.findById(id);
    if (!tenant) throw GatewayError.notFound(`tenant "${id}" does not exist`, 'tenantId');
    return tenant;
  }

  /** A page of tenants for the operator console, newest first, with their stored balance and key count. */
  async page(request: z.output<typeof ConsoleTenantsRequest>): Promise<ConsoleTenantPage> {
    const { rows, total } = await this.tenants.page(request);
    return {
      data: rows.map((tenant) => ({
        slug: tenant.slug,
        name: tenant.name,
        billing: tenant.billing,
        plan: tenant.subscription?.plan?.name ?? null,
        expires: tenant.subscription?.expiresAt?.toISOString() ?? null,
        balance: formatMicros(tenant.balance?.micros ?? 0n),
        keys: tenant._count.keys,
        createdAt: tenant.createdAt.toISOString(),
      })),
      total,
      offset: request.offset,
      limit: request.limit,
    };
  }

  async get(slug: string): Promise<TenantView> {
    return toTenantView(await this.requireBySlug(slug, 'slug'));
  }

  async create(request: z.output<typeof TenantCreateRequest>): Promise<TenantView> {
    if (await this.tenants.findBySlug(request.slug)) throw GatewayError.invalid(`tenant "${request.slug}" already exists`, 'slug');
    if (request.billing === 'payg' && request.plan) throw GatewayError.invalid('pay-as-you-go tenants take no plan', 'plan');
    const plan = await this.resolvePlan(request);
    let expiresAt = request.expires ? new Date(request.expires) : null;
    // A plan subscription without an explicit expiry runs for one period of its plan.
    if (!expiresAt && plan) expiresAt = new Date(Date.now() + plan.periodSeconds * 1000);
    try {
      const created = await this.tenants.create({
        slug: request.slug,
        name: request.name ?? request.slug,
        billing: request.billing,
        subscription: request.billing === 'payg' && !expiresAt ? null : { plan, expiresAt },
      });
      return toTenantView(created);
    } catch (error) {
      if (isUniqueViolation(error)) throw GatewayError.invalid(`tenant "${request.slug}" already exists`, 'slug');
      throw error;
    }
  }

  private async resolvePlan(request: z.output<typeof TenantCreateRequest>) {
    if (request.billing === 'plan' && !request.plan) throw GatewayError.invalid('billing "plan" needs a plan name', 'plan');
    if (!request.plan) return null;
    const plan = await this.tenants.findPlanByName(request.plan);
    if (!plan) throw GatewayError.invalid(`plan "${request.plan}" does not exist`, 'plan');
    return plan;
  }
}
