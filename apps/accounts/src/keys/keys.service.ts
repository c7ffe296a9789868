import { DEFAULT_PROJECT, GatewayError, type KeyContext, type KeyCreated, type KeyView } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { InvalidationPublisher } from '../events/invalidation.publisher';
import { ProjectsService } from '../projects/projects.service';
import { effectiveFeatureControls } from '../tenants/feature-controls';
import { TenantsService } from '../tenants/tenants.service';
import { issueKey } from './key-secret';
import { keyLimits } from '../billing/key-limits';
import { keyCache } from '../cache/key-cache';
import { budgetRulesOf } from '../budgets/budget-rules';
import { KeysRepository, type KeyRecord, type ResolvableKey } from './keys.repository';

function toKeyView(key: KeyRecord): KeyView {
  return {
    id: key.id,
    name: key.name,
    kind: key.kind,
    masked: key.masked,
    status: key.status,
    tenant: key.tenant.slug,
    project: key.project.name,
    models: key.models,
    deny_models: key.denyModels,
    routes: key.routes,
    expires_at: key.expiresAt?.toISOString() ?? null,
    created_at: key.createdAt.toISOString(),
  };
}

/**
 * Keys stop at their own expiry or their tenant's subscription's, the sooner. Plan and custom tenants have a
 * subscription end from the start; a pay-as-you-go tenant only when an operator set one, and then it is meant
 * to bind its keys too.
 */
function keyExpiry(key: ResolvableKey): { at: Date; by: 'key' | 'subscription' } | null {
  const own = key.expiresAt;
  const subscription = key.tenant.subscription?.expiresAt ?? null;
  if (own && (!subscription || own.getTime() <= subscription.getTime())) return { at: own, by: 'key' };
  return subscription ? { at: subscription, by: 'subscription' } : null;
}

export interface KeyRules {
  models?: string[];
  denyModels?: string[];
  routes?: string[];
  /** ISO 8601. */
  expiresAt?: string;
}

@Injectable()
export class KeysService {
  constructor(
    @Inject(KeysRepository) private readonly keys: KeysRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(ProjectsService) private readonly projects: ProjectsService,
    @Inject(InvalidationPublisher) private readonly invalidation: InvalidationPublisher,
  ) {}

  /** An active key's context; an expired one's too, so the edge can say what ended it. */
  async resolve(keyHash: string): Promise<KeyContext | null> {
    const key = await this.keys.findForResolve(keyHash);
    if (!key || key.status !== 'active') return null;
    const expiry = keyExpiry(key);
    return {
      keyId: key.id,
      keyName: key.name,
      kind: key.kind,
      tenantId: key.tenantId,
      tenantSlug: key.tenant.slug,
      billing: key.tenant.billing,
      expiresAt: expiry?.at.toISOString() ?? null,
      expiredBy: expiry?.by ?? null,
      models: key.models,
      budgets: budgetRulesOf(key),
      denyModels: key.denyModels,
      routes: key.routes,
      project: { name: key.project.name, models: key.project.models, denyModels: key.project.denyModels },
      featureControls: effectiveFeatureControls(key.tenant.featureControls),
      limits: keyLimits(key),
      cache: keyCache(key),
    };
  }

  async create(tenantSlug: string, name = 'default', project = DEFAULT_PROJECT, rules: KeyRules = {}): Promise<KeyCreated> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    const projectId = await this.projects.idFor(tenant.id, tenant.slug, project);
    const issued = issueKey(tenant.billing);
    const key = await this.keys.create({
      tenantId: tenant.id,
      projectId,
      name,
      kind: tenant.billing,
      hash: issued.hash,
      masked: issued.masked,
      models: rules.models ?? [],
      denyModels: rules.denyModels ?? [],
      routes: rules.routes ?? [],
      expiresAt: rules.expiresAt ? new Date(rules.expiresAt) : null,
    });
    // An edge may have cached this hash as unknown (a client tried it before it existed).
    this.invalidation.publish({ keyHashes: [issued.hash] });
    return { id: key.id, key: issued.plain, masked: key.masked, kind: key.kind, tenant: key.tenant.slug, project: key.project.name };
  }

  async regenerate(id: string, tenantSlug?: string): Promise<KeyCreated> {
    const existing = await this.requireKey(id, tenantSlug);
    if (existing.status === 'revoked') throw GatewayError.invalid(`key "${id}" is revoked; create a new key instead`, 'id');
    const issued = issueKey(existing.kind);
    const key = await this.keys.replaceSecret(id, issued.hash, issued.masked);
    this.invalidation.publish({ keyHashes: [existing.hash, issued.hash] });
    return { id: key.id, key: issued.plain, masked: key.masked, kind: key.kind, tenant: key.tenant.slug, project: key.project.name };
  }

  async revoke(id: string, tenantSlug?: string): Promise<KeyView> {
    const existing = await this.requireKey(id, tenantSlug);
    const key = existing.status === 'revoked' ? existing : await this.keys.revoke(id);
    this.invalidation.publish({ keyHashes: [existing.hash] });
    return toKeyView(key);
  }

  async list(tenantSlug: string): Promise<KeyView[]> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    return (await this.keys.listByTenant(tenant.id)).map(toKeyView);
  }

  /** The key by id; when a tenant is named (the tenant console), another tenant's key does not exist either. */
  private async requireKey(id: string, tenantSlug?: string): Promise<KeyRecord> {
    const key = await this.keys.findById(id);
    if (!key || (tenantSlug !== undefined && key.tenant.slug !== tenantSlug)) throw GatewayError.notFound(`key "${id}" does not exist`, 'id');
    return key;
  }
}
