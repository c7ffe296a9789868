// The statements of the delivery hot path, sent as named prepared statements on a plain pg pool, each
// over the rows of many deliveries at once (see StatementBatcher): they run for every delivery, where
// Prisma's per-call query building cost more than the statement itself. Timestamps are stored as UTC in `timestamp(3)`
// columns (as Prisma writes them), so values go in as timestamptz and come out `AT TIME ZONE 'UTC'`.
import { z } from 'zod';

const DELIVERY_COLUMNS = `
  id, tenant_id::text AS "tenantId", subject_id AS "subjectId", event_type AS "eventType", seq, url, payload, status, attempts,
  next_attempt_at AT TIME ZONE 'UTC' AS "nextAttemptAt", created_at AT TIME ZONE 'UTC' AS "createdAt",
  delivered_at AT TIME ZONE 'UTC' AS "deliveredAt"`;

/**
 * Inserts each (subject, event type) not recorded yet, one row per event whatever the batch holds twice;
 * returns the ids inserted, each with whether its subject had no pending delivery before this statement
 * (the check does not see the statement's own rows).
 */
export const INSERT_DELIVERIES = `
  INSERT INTO webhook_deliveries AS w (id, tenant_id, subject_id, event_type, seq, url, payload, status, attempts, created_at)
  SELECT id, tenant::uuid, subject, event, seq, url, payload::jsonb, 'pending', 0, now() AT TIME ZONE 'UTC'
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[])
      AS d(id, tenant, subject, event, seq, url, payload)
  ON CONFLICT DO NOTHING
  RETURNING id, NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e.subject_id = w.subject_id AND e.status = 'pending') AS "subjectWasIdle"`;

/** The first delivery still pending of each subject that has one, in order (the index on (subject_id, seq) serves it). */
export const HEADS_OF = `
  SELECT DISTINCT ON (subject_id) ${DELIVERY_COLUMNS} FROM webhook_deliveries
   WHERE subject_id = ANY($1::text[]) AND status = 'pending' ORDER BY subject_id, seq`;

const DUE_COLUMNS = `id, subject_id AS "subjectId", attempts, next_attempt_at AT TIME ZONE 'UTC' AS "nextAttemptAt"`;

/** The same, with only what queuing an attempt needs (no payload). */
export const DUES_OF = `
  SELECT DISTINCT ON (subject_id) ${DUE_COLUMNS} FROM webhook_deliveries
   WHERE subject_id = ANY($1::text[]) AND status = 'pending' ORDER BY subject_id, seq`;

/**
 * The sweep's look for deliveries nobody will make: subjects' first pending deliveries that fell due (or, never
 * attempted, were recorded) before $1, oldest first, after the cursor ($2 due time, $3 id), at most $4. The
 * partial index on pending rows by due time serves the scan; the (subject_id, seq) index answers "is it the head".
 */
export const STALLED_HEADS = `
  SELECT d.id, d.subject_id AS "subjectId", d.attempts, d.next_attempt_at AT TIME ZONE 'UTC' AS "nextAttemptAt",
         COALESCE(d.next_attempt_at, d.created_at) AT TIME ZONE 'UTC' AS "dueAt"
    FROM webhook_deliveries d
   WHERE d.status = 'pending'
     AND COALESCE(d.next_attempt_at, d.created_at) < ($1::timestamptz AT TIME ZONE 'UTC')
     AND (COALESCE(d.next_attempt_at, d.created_at), d.id) > ($2::timestamptz AT TIME ZONE 'UTC', $3::text)
     AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e.subject_id = d.subject_id AND e.status = 'pending' AND e.seq < d.seq)
   ORDER BY COALESCE(d.next_attempt_at, d.created_at), d.id
   LIMIT $4`;

/**
 * Attempts recorded and their deliveries moved on, in one statement (one commit): every attempt row is
 * written whatever happens, a delivery only moves while it is still pending; returns the ids moved.
 * The delivery ids of one call are distinct.
 */
export const RECORD_ATTEMPTS = `
  WITH a AS (
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::int[], $6::int[], $7::text[], $8::timestamptz[], $9::timestamptz[], $10::text[])
      AS a(id, delivery_id, attempt, outcome, response_status, latency_ms, error, started_at, next_attempt_at, status)
  ), recorded AS (
    INSERT INTO webhook_attempts (id, delivery_id, attempt, outcome, response_status, latency_ms, error, started_at, next_attempt_at)
    SELECT id, delivery_id, attempt, outcome, response_status, latency_ms, error, started_at AT TIME ZONE 'UTC', next_attempt_at AT TIME ZONE 'UTC' FROM a
  )
  UPDATE webhook_deliveries d
     SET status = a.status, attempts = a.attempt, next_attempt_at = a.next_attempt_at AT TIME ZONE 'UTC',
         delivered_at = CASE WHEN a.status = 'delivered' THEN now() AT TIME ZONE 'UTC' ELSE d.delivered_at END
    FROM a
   WHERE d.id = a.delivery_id AND d.status = 'pending'
  RETURNING d.id`;

/** A subject's next delivery due, as DUE_OF and DUES_OF return it. */
export const DueSqlRow = z.object({
  id: z.string(),
  subjectId: z.string(),
  attempts: z.number().int(),
  nextAttemptAt: z.date().nullable(),
});
export type DueDelivery = z.infer<typeof DueSqlRow>;

/** A stalled head as STALLED_HEADS returns it: a due delivery and the time it fell due (the sweep's cursor). */
export const StalledSqlRow = DueSqlRow.extend({ dueAt: z.date() });
export type StalledDelivery = z.infer<typeof StalledSqlRow>;

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
