// The statements every upstream callback runs (find the task by its token, move it), sent as named
// prepared statements on the pg pool under Prisma: Prisma's per-call query building cost more CPU than
// the rest of the intake. Timestamps are UTC in `timestamp(3)` columns, as Prisma writes them.
import { z } from 'zod';

/** A task row by its token's hash, every column under the name Prisma gives it. */
export const FIND_BY_TOKEN_HASH = `
  SELECT id, tenant_id::text AS "tenantId", key_id AS "keyId", route, query_kind AS "queryKind", model, channel_id AS "channelId",
         upstream_task_id AS "upstreamTaskId", token_hash AS "tokenHash", callback_url AS "callBackUrl", status, request, result,
         error_code AS "errorCode", error_message AS "errorMessage", hold,
         deadline_at AT TIME ZONE 'UTC' AS "deadlineAt", created_at AT TIME ZONE 'UTC' AS "createdAt",
         updated_at AT TIME ZONE 'UTC' AS "updatedAt", completed_at AT TIME ZONE 'UTC' AS "completedAt"
    FROM music_tasks WHERE token_hash = $1`;

/**
 * The compare-and-swap move: from `$2` to `$3` only while the task is still in `$2`. Each optional field
 * changes only when its flag says it was given (a null given clears it; one not given is kept).
 */
export const MOVE = `
  UPDATE music_tasks
     SET status = $3,
         result = CASE WHEN $4::boolean THEN $5::jsonb ELSE result END,
         upstream_task_id = CASE WHEN $6::boolean THEN $7::text ELSE upstream_task_id END,
         error_code = CASE WHEN $8::boolean THEN $9::int ELSE error_code END,
         error_message = CASE WHEN $10::boolean THEN $11::text ELSE error_message END,
         completed_at = CASE WHEN $12::boolean THEN now() AT TIME ZONE 'UTC' ELSE completed_at END,
         updated_at = now() AT TIME ZONE 'UTC'
   WHERE id = $1 AND status = $2`;

const Json = z.custom<unknown>((value) => value !== undefined);

/** A task row as FIND_BY_TOKEN_HASH returns it, checked before the intake uses it. */
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
  deadlineAt: z.date(),
  createdAt: z.date(),
  updatedAt: z.date(),
  completedAt: z.date().nullable(),
});
