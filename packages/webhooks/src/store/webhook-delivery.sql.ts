// The statements of the delivery hot path, sent as named prepared statements on a plain pg pool: each
// runs once or twice per delivery, thousands of times a second at full speed, where Prisma's per-call
// query building costs more than the statement itself. Timestamps are stored as UTC in `timestamp(3)`
// columns (as Prisma writes them), so values go in as timestamptz and come out `AT TIME ZONE 'UTC'`.
import { z } from 'zod';

const DELIVERY_COLUMNS = `
  id, tenant_id::text AS "tenantId", subject_id AS "subjectId", event_type AS "eventType", seq, url, payload, status, attempts,
  next_attempt_at AT TIME ZONE 'UTC' AS "nextAttemptAt", created_at AT TIME ZONE 'UTC' AS "createdAt",
  delivered_at AT TIME ZONE 'UTC' AS "deliveredAt"`;

/** Inserts each (subject, event type) not recorded yet: one row per event, whatever the batch holds twice. */
export const INSERT_DELIVERIES = `
  INSERT INTO webhook_deliveries (id, tenant_id, subject_id, event_type, seq, url, payload, status, attempts, created_at)
  SELECT id, tenant::uuid, subject, event, seq, url, payload::jsonb, 'pending', 0, now() AT TIME ZONE 'UTC'
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[])
      AS d(id, tenant, subject, event, seq, url, payload)
  ON CONFLICT DO NOTHING`;

/** The first delivery still pending of one subject, in order (the index on (subject_id, seq) serves it). */
export const HEAD_OF = `
  SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
   WHERE subject_id = $1 AND status = 'pending' ORDER BY seq LIMIT 1`;

const DUE_COLUMNS = `id, subject_id AS "subjectId", attempts, next_attempt_at AT TIME ZONE 'UTC' AS "nextAttemptAt"`;

/** What queuing a subject's head needs (no payload): for one subject, */
export const DUE_OF = `
  SELECT ${DUE_COLUMNS} FROM webhook_deliveries
   WHERE subject_id = $1 AND status = 'pending' ORDER BY seq LIMIT 1`;

/** and for many at once: one row per subject that has a delivery pending. */
export const DUES_OF = `
  SELECT DISTINCT ON (subject_id) ${DUE_COLUMNS} FROM webhook_deliveries
   WHERE subject_id = ANY($1::text[]) AND status = 'pending' ORDER BY subject_id, seq`;

/**
 * An attempt recorded and its delivery moved on, in one statement (one commit): the attempt row is
 * written whatever happens, the delivery only moves while it is still pending.
 */
export const RECORD_ATTEMPT = `
  WITH attempt AS (
    INSERT INTO webhook_attempts (id, delivery_id, attempt, outcome, response_status, latency_ms, error, started_at, next_attempt_at)
    VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8::timestamptz AT TIME ZONE 'UTC', $9::timestamptz AT TIME ZONE 'UTC')
  )
  UPDATE webhook_deliveries
     SET status = $10::text, attempts = $3, next_attempt_at = $9::timestamptz AT TIME ZONE 'UTC',
         delivered_at = CASE WHEN $10::text = 'delivered' THEN now() AT TIME ZONE 'UTC' ELSE delivered_at END
   WHERE id = $2 AND status = 'pending'`;

/** A subject's next delivery due, as DUE_OF and DUES_OF return it. */
export const DueSqlRow = z.object({
  id: z.string(),
  subjectId: z.string(),
  attempts: z.number().int(),
  nextAttemptAt: z.date().nullable(),
});
export type DueDelivery = z.infer<typeof DueSqlRow>;

/** A delivery row as HEAD_OF returns it, checked before domain code sees it (the payload is the JSON this package wrote). */
export const DeliverySqlRow = z.object({
  id: z.string(),
  tenantId: z.string(),
  subjectId: z.string(),
  eventType: z.string(),
  seq: z.number().int(),
  url: z.string(),
  payload: z.custom<unknown>((value) => value !== undefined),
  status: z.string(),
  attempts: z.number().int(),
  nextAttemptAt: z.date().nullable(),
  createdAt: z.date(),
  deliveredAt: z.date().nullable(),
});
