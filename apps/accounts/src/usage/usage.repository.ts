import { usageKindOf, usageSubjectOf, type UsageEvent } from '@gateway/contracts';
import { SQL_POOL } from '@gateway/platform/infra';
import { pgTextFields, type SqlPool } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';
import { usageModelName } from './usage-model-name';

const INSERT_MANY = `
  INSERT INTO usage_records (request_id, tenant_id, key_id, model_id, channel_id, family, route,
                             prompt_tokens, completion_tokens, latency_ms, outcome, status, created_at, client_request_id,
                             kind, subject_id, cached_tokens, seconds, images, tasks, cost_micros)
  SELECT r, t, k, m, ch, f, ro, p, c, l, o, s, at AT TIME ZONE 'UTC', cr, ki, su, ca, se, im, ta, co
    FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[],
                $8::int[], $9::int[], $10::int[], $11::text[], $12::int[], $13::timestamptz[], $14::text[],
                $15::text[], $16::text[], $17::int[], $18::float8[], $19::int[], $20::int[], $21::bigint[])
      AS u(r, t, k, m, ch, f, ro, p, c, l, o, s, at, cr, ki, su, ca, se, im, ta, co)
  ON CONFLICT (request_id) DO NOTHING
  RETURNING request_id`;

/**
 * The only writer of usage_records. A batch is one prepared INSERT over unnested arrays: one round trip,
 * no per-row query building and no per-call compilation, which matters at thousands of requests a second.
 */
@Injectable()
export class UsageRepository {
  constructor(@Inject(SQL_POOL) private readonly pool: SqlPool) {}

  /**
   * Inserts each event once; a redelivered event (same requestId) is skipped. Returns rows written, and
   * hands `written` the ids of the rows this call wrote.
   */
  async insertMany(events: UsageEvent[], written?: (requestIds: Set<string>) => void): Promise<number> {
    if (events.length === 0) return 0;
    const rows = events.map(pgTextFields);
    const column = <T>(pick: (e: UsageEvent) => T): T[] => rows.map(pick);
    const result = await this.pool.query({
      name: 'usage-insert-many-returning',
      text: INSERT_MANY,
      values: [
        column((e) => e.requestId),
        column((e) => e.tenantId),
        column((e) => e.keyId),
        column((e) => usageModelName(e.modelId)),
        column((e) => e.channelId),
        column((e) => e.family),
        column((e) => e.route),
        column((e) => e.promptTokens),
        column((e) => e.completionTokens),
        column((e) => e.latencyMs),
        column((e) => e.outcome),
        column((e) => e.status),
        column((e) => e.at),
        column((e) => e.clientRequestId ?? null),
        column((e) => usageKindOf(e)),
        column((e) => usageSubjectOf(e)),
        column((e) => e.cachedTokens ?? 0),
        column((e) => e.seconds ?? 0),
        column((e) => e.images ?? 0),
        column((e) => e.tasks ?? 0),
        column((e) => e.costMicros ?? null),
      ],
    });
    written?.(new Set(result.rows.map((row: { request_id: string }) => row.request_id)));
    return result.rowCount ?? 0;
  }
}
