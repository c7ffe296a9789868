import type { ConsoleUsageRecordsMessage } from '@gateway/contracts';
import { SQL_POOL } from '@gateway/platform/infra';
import type { SqlPool } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';
import type { KeysetPosition } from '@gateway/platform';
import { latencySummarySql, type LatencyGroup } from './latency-summary.sql';
import type { UsageRow } from '../../billing/usage-row';

export interface LatencyRow {
  group: string;
  bucket: number;
  count: string;
}

/** A usage record as the console pages it: with its keyset position and latency. */
export interface UsageRecordRow extends UsageRow {
  at_text: string;
  latency_ms: number;
  cost_micros: string;
}

export interface ChargeRow {
  request_id: string;
  held: string;
  charged: string;
}

/** Newest first after the cursor; the index on (tenant_id, created_at) walks it without an offset. */
const RECORDS_PAGE = `
  SELECT u.request_id, u.client_request_id, u.key_id::text AS key_id, u.model_id, u.route, u.prompt_tokens, u.completion_tokens,
         u.outcome, u.status, u.created_at, u.created_at::text AS at_text, u.kind, u.subject_id, u.latency_ms,
         coalesce((SELECT -sum(l.amount_micros) FROM ledger_entries l WHERE l.tenant_id = u.tenant_id AND l.request_id = u.request_id), 0)::text AS cost_micros
    FROM usage_records u
   WHERE u.tenant_id = $1::uuid
     AND ($2::timestamp IS NULL OR u.created_at >= $2::timestamp)
     AND ($3::timestamp IS NULL OR u.created_at < $3::timestamp)
     AND ($4::text IS NULL OR u.model_id = $4::text)
     AND ($5::uuid IS NULL OR u.key_id = $5::uuid)
     AND ($6::text IS NULL OR u.kind = $6::text)
     AND ($7::timestamp IS NULL OR (u.created_at, u.request_id) < ($7::timestamp, $8::text))
   ORDER BY u.created_at DESC, u.request_id DESC
   LIMIT $9`;

const CHARGES = `
  SELECT request_id,
         coalesce(-sum(amount_micros) FILTER (WHERE kind = 'reserve'), 0)::text AS held,
         (-sum(amount_micros))::text AS charged
    FROM ledger_entries
   WHERE tenant_id = $1::uuid AND request_id = ANY($2::text[])
   GROUP BY request_id`;

/** What a batch's (or task's or run's) records were held and charged, each record's own ledger entries summed. */
const CHARGES_BY_SUBJECT = `
  SELECT u.subject_id AS request_id,
         coalesce(-sum(l.amount_micros) FILTER (WHERE l.kind = 'reserve'), 0)::text AS held,
         coalesce(-sum(l.amount_micros), 0)::text AS charged
    FROM usage_records u
    JOIN ledger_entries l ON l.tenant_id = u.tenant_id AND l.request_id = u.request_id
   WHERE u.tenant_id = $1::uuid AND u.subject_id = ANY($2::text[])
   GROUP BY u.subject_id`;

const utc = (iso: string | undefined): string | null => (iso === undefined ? null : new Date(iso).toISOString().replace('T', ' ').replace('Z', ''));

/** Reads the console's usage views: a latency histogram by group, records page by page, what the ledger held and charged. */
@Injectable()
export class ConsoleUsageRepository {
  constructor(@Inject(SQL_POOL) private readonly pool: SqlPool) {}

  /** The latency histogram by group, read with the fold's watermark in one snapshot so a fold meanwhile counts once. */
  async latency(tenantId: string, by: LatencyGroup, since?: string, until?: string): Promise<LatencyRow[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const folded = (await client.query<{ xid: string }>(`SELECT folded_xid::text AS xid FROM usage_fold WHERE id = 1`)).rows[0]?.xid ?? '0';
      const query = latencySummarySql(tenantId, by, since ? new Date(since) : null, until ? new Date(until) : null, folded);
      const { rows } = await client.query<LatencyRow>(query.text, query.values);
      await client.query('COMMIT');
      return rows;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async records(query: ConsoleUsageRecordsMessage, after: KeysetPosition | null): Promise<UsageRecordRow[]> {
    const values = [
      query.tenantId,
      utc(query.since),
      utc(query.until),
      query.model ?? null,
      query.keyId ?? null,
      query.kind ?? null,
      after?.at ?? null,
      after?.id ?? '',
      query.limit + 1,
    ];
    return (await this.pool.query<UsageRecordRow>(RECORDS_PAGE, values)).rows;
  }

  async charges(tenantId: string, requestIds: readonly string[]): Promise<ChargeRow[]> {
    if (requestIds.length === 0) return [];
    return (await this.pool.query<ChargeRow>(CHARGES, [tenantId, requestIds])).rows;
  }

  /** Rows keyed by the subject id (in `request_id`). */
  async chargesBySubject(tenantId: string, subjectIds: readonly string[]): Promise<ChargeRow[]> {
    if (subjectIds.length === 0) return [];
    return (await this.pool.query<ChargeRow>(CHARGES_BY_SUBJECT, [tenantId, subjectIds])).rows;
  }
}
