// Batches (spec 2.9, 3.5, 4.8): public records, the input line format, NATS payloads and job data.
import { z } from 'zod';
import { TenantCaller } from '../families/tenant-caller.schema';
import { hasLoneSurrogate } from '../json/json-text';
import { FileIdParam } from './file.schema';

export const BATCH_ENDPOINTS = ['/v1/chat/completions', '/v1/completions', '/v1/responses', '/v1/embeddings', '/v1/moderations'] as const;
export const BatchEndpoint = z.enum(BATCH_ENDPOINTS, { error: `endpoint must be one of ${BATCH_ENDPOINTS.join(', ')}` });
export type BatchEndpoint = z.infer<typeof BatchEndpoint>;

export const BATCH_STATUSES = ['validating', 'failed', 'in_progress', 'finalizing', 'completed', 'expired', 'cancelling', 'cancelled'] as const;
export const BatchStatus = z.enum(BATCH_STATUSES);
export type BatchStatus = z.infer<typeof BatchStatus>;

/** A batch id as the gateway issues it. */
export const BatchIdParam = z.string().regex(/^batch_[A-Za-z0-9]{1,64}$/, 'not a batch id');

/** POST /oaic/v1/batches body. */
export const BatchCreateRequest = z.object({
  input_file_id: FileIdParam,
  endpoint: BatchEndpoint,
  completion_window: z.literal('24h', { error: 'completion_window must be 24h' }),
  metadata: z.record(z.string().max(64), z.string().max(512)).nullish(),
});
export type BatchCreateRequest = z.infer<typeof BatchCreateRequest>;

export const BatchListQuery = z.object({
  after: BatchIdParam.optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
export type BatchListQuery = z.infer<typeof BatchListQuery>;

export const BatchError = z.object({
  code: z.string(),
  message: z.string(),
  param: z.string().nullable(),
  line: z.number().int().nullable(),
});
export type BatchError = z.infer<typeof BatchError>;

export const BatchRequestCounts = z.object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int() });
export type BatchRequestCounts = z.infer<typeof BatchRequestCounts>;

export const BatchObject = z.object({
  id: z.string(),
  object: z.literal('batch'),
  endpoint: z.string(),
  errors: z.object({ object: z.literal('list'), data: z.array(BatchError) }).nullable(),
  input_file_id: z.string(),
  completion_window: z.string(),
  status: BatchStatus,
  output_file_id: z.string().nullable(),
  error_file_id: z.string().nullable(),
  created_at: z.number().int(),
  in_progress_at: z.number().int().nullable(),
  expires_at: z.number().int().nullable(),
  finalizing_at: z.number().int().nullable(),
  completed_at: z.number().int().nullable(),
  failed_at: z.number().int().nullable(),
  expired_at: z.number().int().nullable(),
  cancelling_at: z.number().int().nullable(),
  cancelled_at: z.number().int().nullable(),
  request_counts: BatchRequestCounts,
  metadata: z.record(z.string(), z.string()).nullable(),
});
export type BatchObject = z.infer<typeof BatchObject>;

export const BatchList = z.object({
  object: z.literal('list'),
  data: z.array(BatchObject),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});
export type BatchList = z.infer<typeof BatchList>;

/** One line of a batch input file. The body is checked against the endpoint's own request schema apart. */
export const BatchInputLine = z.object({
  custom_id: z
    .string()
    .min(1, 'custom_id must not be empty')
    .max(512)
    .refine((id) => !id.includes('\u0000'), 'custom_id must not contain NUL')
    .refine((id) => !hasLoneSurrogate(id), 'custom_id must not contain a lone UTF-16 surrogate'),
  method: z.literal('POST', { error: 'method must be POST' }),
  url: z.string(),
  body: z.looseObject({}),
});
export type BatchInputLine = z.infer<typeof BatchInputLine>;

/** `files.oaic.batches.create`. */
export const BatchCreatePayload = TenantCaller.extend({ body: BatchCreateRequest });
export type BatchCreatePayload = z.infer<typeof BatchCreatePayload>;

/** `files.oaic.batches.get` and `.cancel`. */
export const BatchIdPayload = TenantCaller.extend({ batchId: BatchIdParam });
export type BatchIdPayload = z.infer<typeof BatchIdPayload>;

export const BatchListPayload = TenantCaller.extend({ query: BatchListQuery });
export type BatchListPayload = z.infer<typeof BatchListPayload>;

/** Job data of the batch queues: which batch to validate, run or finalize; the truth is in Postgres. */
export const BatchJobData = z.object({ batchId: BatchIdParam });
export type BatchJobData = z.infer<typeof BatchJobData>;

/** Job data of one line's run: the batch and the line's position in the input file (1-based). */
export const BatchLineJobData = z.object({ batchId: BatchIdParam, line: z.number().int().positive() });
export type BatchLineJobData = z.infer<typeof BatchLineJobData>;
