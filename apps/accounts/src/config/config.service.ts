import type { ApplyResult, GatewayConfig } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { InvalidationPublisher } from '../events/invalidation.publisher';
import { planApply } from './config-plan';
import { ConfigRepository } from './config.repository';

@Injectable()
export class ConfigService {
  constructor(
    @Inject(ConfigRepository) private readonly config: ConfigRepository,
    @Inject(InvalidationPublisher) private readonly invalidation: InvalidationPublisher,
  ) {}

  async apply(file: GatewayConfig, now = new Date()): Promise<ApplyResult> {
    const { plan, touchedTenantIds } = await this.config.applyInTransaction(
      file.tenants.map((t) => t.slug),
      (state) => planApply(file, state, now),
    );
    // Models, prices, visibility or channels may have moved: every cached model list and route goes stale.
    if (plan.result.changes.length) this.invalidation.publish({ catalog: true, tenantIds: touchedTenantIds });
    return plan.result;
  }
}
