import { PrismaClient } from '@gateway/db';
import { Injectable } from '@nestjs/common';
import type { UsageEvent } from './usage-event.schema';

/** The only writer of usage_records. */
@Injectable()
export class UsageRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Inserts each event once; a redelivered event (same requestId) is skipped. */
  async insertMany(events: UsageEvent[]): Promise<number> {
    const result = await this.prisma.usageRecord.createMany({
      skipDuplicates: true,
      data: events.map((e) => ({
        requestId: e.requestId,
        tenantId: e.tenantId,
        keyId: e.keyId,
        modelId: e.modelId,
        channelId: e.channelId,
        family: e.family,
        route: e.route,
        promptTokens: e.promptTokens,
        completionTokens: e.completionTokens,
        latencyMs: e.latencyMs,
        outcome: e.outcome,
        status: e.status,
        createdAt: new Date(e.at),
      })),
    });
    return result.count;
  }
}
