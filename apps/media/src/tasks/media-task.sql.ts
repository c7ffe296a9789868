// What every poll and task end runs (read, count the poll, end, mark billed): named prepared statements
// over the tasks of many jobs at once (see StatementBatcher), cheaper than a Prisma call each at thousands
// of tasks in flight. Timestamps are UTC in `timestamp(3)` columns.
import { z } from 'zod';

const LIVE = `state NOT IN ('succeeded', 'failed', 'cancelled')`;

/**
 * The rows of tasks just submitted, one per array index: what every create of a turn writes, in one
 * statement and one commit. `request` and `billing_hold` are JSON text; times are the app's, in UTC.
 */
export const INSERT_MANY = `
  INSERT INTO media_tasks (id, tenant_id, key_id, family, route, query_kind, model, channel_id, protocol, upstream_task_id, state,
                           request, billing_hold, deadline_at, created_at, updated_at, client_request_id)
  SELECT m.id, m.tenant_id, m.key_id, m.family, m.route, m.query_kind, m.model, m.channel_id, m.protocol, m.upstream_task_id, m.state,
         m.request::jsonb, m.billing_hold::jsonb, m.deadline_at, m.created_at, m.created_at, m.client_request_id
    FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
                $11::text[], $12::text[], $13::text[], $14::timestamp[], $15::timestamp[], $16::text[])
      AS m(id, tenant_id, key_id, family, route, query_kind, model, channel_id, protocol, upstream_task_id, state,
           request, billing_hold, deadline_at, created_at, client_request_id)`;

/** Task rows by id, every column under the name Prisma gives it. */
export const FIND_MANY = `
  SELECT id, tenant_id::text AS "tenantId", key_id AS "keyId", family, route, query_kind AS "queryKind", model,
         channel_id AS "channelId", protocol, upstream_task_id AS "upstreamTaskId", state, progress, request, results, usage,
         error_code AS "errorCode", error_message AS "errorMessage", billing_hold AS "billingHold",
         client_request_id AS "clientRequestId", polls, deadline_at AT TIME ZONE 'UTC' AS "deadlineAt",
         created_at AT TIME ZONE 'UTC' AS "createdAt", updated_at AT TIME ZONE 'UTC' AS "updatedAt",
         finished_at AT TIME ZONE 'UTC' AS "finishedAt"
    FROM media_tasks WHERE id = ANY($1::text[])`;

/**
 * Polls counted on live tasks: each one's state and progress set where given (null keeps them), its
 * poll count raised by one. The task ids of one call are distinct.
 */
export const COUNT_POLLS_MANY = `
  UPDATE media_tasks t
     SET state = COALESCE(m.state, t.state), progress = COALESCE(m.progress, t.progress), polls = t.polls + 1,
         updated_at = now() AT TIME ZONE 'UTC'
    FROM unnest($1::text[], $2::text[], $3::int[]) AS m(id, state, progress)
   WHERE t.id = m.id AND t.${LIVE}`;

/**
 * Compare-and-swap ends: each task to its terminal state only while it is live; results, usage and the
 * error kept where not given (null). Returns the ids moved. The task ids of one call are distinct.
 */
export const FINISH_MANY = `
  UPDATE media_tasks t
     SET state = m.state, finished_at = now() AT TIME ZONE 'UTC', updated_at = now() AT TIME ZONE 'UTC',
         progress = CASE WHEN m.state = 'succeeded' THEN 100 ELSE t.progress END,
         results = COALESCE(m.results::jsonb, t.results), usage = COALESCE(m.usage::jsonb, t.usage),
         error_code = COALESCE(m.error_code, t.error_code), error_message = COALESCE(m.error_message, t.error_message)
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
      AS m(id, state, results, usage, error_code, error_message)
   WHERE t.id = m.id AND t.${LIVE}
  RETURNING t.id`;

/** The tasks of $1 whose hold was ended and usage record published: nothing is left to bill. */
export const MARK_BILLED_MANY = `
  UPDATE media_tasks SET billing_hold = NULL, updated_at = now() AT TIME ZONE 'UTC' WHERE id = ANY($1::text[])`;

const Json = z.custom<unknown>((value) => value !== undefined);

/** A task row as FIND_MANY returns it, checked before the repository maps it. */
export const MediaTaskSqlRow = z.object({
  id: z.string(),
  tenantId: z.string(),
  keyId: z.string(),
  family: z.string(),
  route: z.string(),
  queryKind: z.string(),
  model: z.string(),
  channelId: z.string().nullable(),
  protocol: z.string(),
  upstreamTaskId: z.string().nullable(),
  state: z.string(),
  progress: z.number().int(),
  request: Json,
  results: Json.nullable(),
  usage: Json.nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  billingHold: Json.nullable(),
  clientRequestId: z.string().nullable(),
  polls: z.number().int(),
  deadlineAt: z.date(),
  createdAt: z.date(),
  updatedAt: z.date(),
  finishedAt: z.date().nullable(),
});
