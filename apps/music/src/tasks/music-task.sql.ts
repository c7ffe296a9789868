// The statements every upstream callback runs (find the task by its token, move it), sent as named
// prepared statements on the pg pool under Prisma, each over the tasks of many callbacks at once (see
// StatementBatcher): Prisma's per-call query building cost more CPU than the rest of the intake.
// Timestamps are UTC in `timestamp(3)` columns, as Prisma writes them.
import { z } from 'zod';

/** Task rows by their tokens' hashes, every column under the name Prisma gives it. */
export const FIND_BY_TOKEN_HASHES = `
  SELECT id, tenant_id::text AS "tenantId", key_id AS "keyId", route, query_kind AS "queryKind", model, channel_id AS "channelId",
         upstream_task_id AS "upstreamTaskId", token_hash AS "tokenHash", callback_url AS "callBackUrl", status, request, result,
         error_code AS "errorCode", error_message AS "errorMessage", hold, client_request_id AS "clientRequestId",
         deadline_at AT TIME ZONE 'UTC' AS "deadlineAt", created_at AT TIME ZONE 'UTC' AS "createdAt",
         updated_at AT TIME ZONE 'UTC' AS "updatedAt", completed_at AT TIME ZONE 'UTC' AS "completedAt",
         billed_at AT TIME ZONE 'UTC' AS "billedAt"
    FROM music_tasks WHERE token_hash = ANY($1::text[])`;

/**
 * Compare-and-swap moves: each task from its `from` to its `to` only while it is still in `from`; each
 * optional field changes only when its flag says it was given (a null given clears it; one not given is
 * kept). Returns the ids moved. The task ids of one call are distinct.
 */
export const MOVE_MANY = `
  UPDATE music_tasks t
     SET status = m.to_status,
         result = CASE WHEN m.set_result THEN m.result::jsonb ELSE t.result END,
         upstream_task_id = CASE WHEN m.set_upstream THEN m.upstream_task_id ELSE t.upstream_task_id END,
         error_code = CASE WHEN m.set_error_code THEN m.error_code ELSE t.error_code END,
         error_message = CASE WHEN m.set_error_message THEN m.error_message ELSE t.error_message END,
         completed_at = CASE WHEN m.terminal THEN now() AT TIME ZONE 'UTC' ELSE t.completed_at END,
         updated_at = now() AT TIME ZONE 'UTC'
    FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::text[], $6::boolean[], $7::text[],
                $8::boolean[], $9::int[], $10::boolean[], $11::text[], $12::boolean[])
      AS m(id, from_status, to_status, set_result, result, set_upstream, upstream_task_id,
           set_error_code, error_code, set_error_message, error_message, terminal)
   WHERE t.id = m.id AND t.status = m.from_status
  RETURNING t.id`;

/** The tasks of $1 whose hold was ended and usage record published, marked billed (once). */
export const MARK_BILLED_MANY = `
  UPDATE music_tasks SET billed_at = now() AT TIME ZONE 'UTC'
   WHERE id = ANY($1::text[]) AND billed_at IS NULL`;

const Json = z.custom<unknown>((value) => value !== undefined);

/** A task row as FIND_BY_TOKEN_HASHES returns it, checked before the intake uses it. */
export const MusicTaskSqlRow = z.object({
  id: z.string(),
  tenantId: z.string(),
  keyId: z.string(),
  route: z.string(),
  queryKind: z.string(),
  model: z.string(),
  channelId: z.string(),
  upstreamTaskId: z.string().nullable(),
  tokenHash: z.string(),
  callBackUrl: z.string(),
  status: z.string(),
  request: Json,
  result: Json.nullable(),
  errorCode: z.number().int().nullable(),
  errorMessage: z.string().nullable(),
  hold: Json.nullable(),
  clientRequestId: z.string().nullable(),
  deadlineAt: z.date(),
  createdAt: z.date(),
  updatedAt: z.date(),
  completedAt: z.date().nullable(),
  billedAt: z.date().nullable(),
});
