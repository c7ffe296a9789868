import { GatewayError, type ApplyResult, type GatewayConfig } from '@gateway/contracts';
import { Prisma } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';
import { InvalidationPublisher } from '../events/invalidation.publisher';
import { planApply } from './config-plan';
import { ConfigRepository } from './config.repository';

function isSerializationConflict(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2034';
}

@Injectable()
export class ConfigService {
  constructor(
    @Inject(ConfigRepository) private readonly config: ConfigRepository,
    @Inject(InvalidationPublisher) private readonly invalidation: InvalidationPublisher,
  ) {}

  async apply(file: GatewayConfig, now = new Date()): Promise<ApplyResult> {
    let outcome;
    try {
      outcome = await this.config.applyInTransaction(
        file.tenants.map((t) => t.slug),
        (state) => planApply(file, state, now),
      );
    } catch (error) {
      if (isSerializationConflict(error)) throw new GatewayError('unavailable', 'another apply changed the same rows at the same time; apply again');
      throw error;
    }
    const { plan, touchedTenantIds } = outcome;
    // Models, prices, visibility or channels may have moved: every cached model list and route goes stale.
    if (plan.result.changes.length) this.invalidation.publish({ catalog: true, tenantIds: touchedTenantIds });
    return plan.result;
  }
}
