import type { UsageEvent } from '@gateway/contracts';
import { PrismaClient } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

/**
 * The only writer of usage_records. A batch is one INSERT over unnested arrays: one round trip and
 * no per-row query building, which matters at thousands of requests a second.
 */
@Injectable()
export class UsageRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** Inserts each event once; a redelivered event (same requestId) is skipped. Returns rows written. */
  async insertMany(events: UsageEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const column = <T>(pick: (e: UsageEvent) => T): T[] => events.map(pick);
    return this.prisma.$executeRaw`
      INSERT INTO usage_records (request_id, tenant_id, key_id, model_id, channel_id, family, route,
                                 prompt_tokens, completion_tokens, latency_ms, outcome, status, created_at)
      SELECT r, t, k, m, ch, f, ro, p, c, l, o, s, at AT TIME ZONE 'UTC'
        FROM unnest(
          ${column((e) => e.requestId)}::text[], ${column((e) => e.tenantId)}::uuid[], ${column((e) => e.keyId)}::uuid[],
          ${column((e) => e.modelId)}::text[], ${column((e) => e.channelId)}::text[], ${column((e) => e.family)}::text[],
          ${column((e) => e.route)}::text[], ${column((e) => e.promptTokens)}::int[], ${column((e) => e.completionTokens)}::int[],
          ${column((e) => e.latencyMs)}::int[], ${column((e) => e.outcome)}::text[], ${column((e) => e.status)}::int[],
          ${column((e) => e.at)}::timestamptz[]
        ) AS u(r, t, k, m, ch, f, ro, p, c, l, o, s, at)
      ON CONFLICT (request_id) DO NOTHING`;
  }
}
