// Assistants, threads, messages and runs (spec 4.9): a pass-through to OpenAI-protocol upstreams that serve
// them. The bodies stay the upstream's to judge; the gateway parses only the fields it routes, bills or
// rewrites by (model, assistant_id, stream) and the ids it records.
import { z } from 'zod';
import { TenantCaller } from '../tenant-caller.schema';
import { BodyRef } from './oaic-call.schema';

/** The 13 operations, named as their route ids after `oaic.`. */
export const ASSISTANTS_OPS = [
  'assistants.create',
  'assistants.list',
  'assistants.get',
  'assistants.update',
  'assistants.delete',
  'threads.create',
  'threads.get',
  'threads.update',
  'threads.delete',
  'threads.messages.create',
  'threads.messages.list',
  'threads.runs.create',
  'threads.runs.list',
] as const;
export const AssistantsOp = z.enum(ASSISTANTS_OPS);
export type AssistantsOp = z.infer<typeof AssistantsOp>;

/** An upstream object id as it appears in a path (`asst_...`, `thread_...`). */
const UpstreamId = (what: string) => z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, `not ${what} id`);
export const AssistantIdParam = UpstreamId('an assistant');
export const ThreadIdParam = UpstreamId('a thread');

const Model = z.string({ error: 'model must be a string' }).min(1, 'model must not be empty').max(256);
const Metadata = z.record(z.string().max(64), z.string().max(512)).nullish();

/** POST /oaic/v1/assistants. */
export const AssistantCreateRequest = z.looseObject({
  model: Model,
  name: z.string().max(256).nullish(),
  instructions: z.string().max(256_000).nullish(),
  tools: z
    .array(z.looseObject({ type: z.string() }))
    .max(128)
    .optional(),
  metadata: Metadata,
});
export type AssistantCreateRequest = z.infer<typeof AssistantCreateRequest>;

/** POST /oaic/v1/assistants/{assistant_id}. */
export const AssistantUpdateRequest = AssistantCreateRequest.partial();
export type AssistantUpdateRequest = z.infer<typeof AssistantUpdateRequest>;

const MessageContent = z.union([z.string().max(256_000), z.array(z.looseObject({ type: z.string() })).min(1)]);

/** POST /oaic/v1/threads/{thread_id}/messages, and each of a new thread's `messages`. */
export const MessageCreateRequest = z.looseObject({
  role: z.enum(['user', 'assistant'], { error: 'role must be user or assistant' }),
  content: MessageContent,
  metadata: Metadata,
});
export type MessageCreateRequest = z.infer<typeof MessageCreateRequest>;

/** POST /oaic/v1/threads (the SDK sends `{}` for a thread with nothing in it). */
export const ThreadCreateRequest = z.looseObject({ messages: z.array(MessageCreateRequest).max(32).optional(), metadata: Metadata });
export type ThreadCreateRequest = z.infer<typeof ThreadCreateRequest>;

/** POST /oaic/v1/threads/{thread_id}. */
export const ThreadUpdateRequest = z.looseObject({ metadata: Metadata });
export type ThreadUpdateRequest = z.infer<typeof ThreadUpdateRequest>;

/** POST /oaic/v1/threads/{thread_id}/runs. */
export const RunCreateRequest = z.looseObject({
  assistant_id: AssistantIdParam,
  model: Model.nullish(),
  instructions: z.string().max(256_000).nullish(),
  additional_messages: z.array(MessageCreateRequest).max(32).nullish(),
  stream: z.boolean({ error: 'stream must be a boolean' }).nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  max_prompt_tokens: z.number().int().positive().nullish(),
  metadata: Metadata,
});
export type RunCreateRequest = z.infer<typeof RunCreateRequest>;

/** Query of the list routes (assistants, messages, runs): OpenAI's cursor paging. */
export const AssistantsListQuery = z.object({
  limit: z.coerce.number().int().min(1, 'limit must be between 1 and 100').max(100, 'limit must be between 1 and 100').optional(),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
  after: UpstreamId('a cursor').optional(),
  before: UpstreamId('a cursor').optional(),
  /** Messages only: the run whose messages to list. */
  run_id: UpstreamId('a run').optional(),
});
export type AssistantsListQuery = z.infer<typeof AssistantsListQuery>;

/** `chat.oaic.assistants`: one operation, the ids its path names, its query, and its body inline or by claim check. */
export const AssistantsCallPayload = TenantCaller.extend({
  op: AssistantsOp,
  assistantId: AssistantIdParam.optional(),
  threadId: ThreadIdParam.optional(),
  query: AssistantsListQuery.default({}),
  body: z.unknown().optional(),
  bodyRef: BodyRef.optional(),
}).refine((p) => p.body === undefined || p.bodyRef === undefined, { message: 'give at most one of body or bodyRef', path: ['body'] });
export type AssistantsCallPayload = z.infer<typeof AssistantsCallPayload>;

/**
 * What the gateway reads of an upstream assistants-API object (assistant, thread, message, run, deleted
 * marker, stream event): its id and, where it has one, its model. The rest is the upstream's, passed on.
 */
export const UpstreamAssistantsObject = z
  .looseObject({ id: z.string().min(1).max(128), model: z.string().nullish() })
  .describe("An assistants-API object as the upstream answers it; the model is the catalog's id");
export type UpstreamAssistantsObject = z.infer<typeof UpstreamAssistantsObject>;

/** A run as the gateway reads it: its status and, once the upstream reports it, its token usage. */
export const UpstreamRun = UpstreamAssistantsObject.extend({
  status: z.string(),
  usage: z
    .looseObject({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
      prompt_token_details: z.looseObject({ cached_tokens: z.number().int().nonnegative().nullish() }).nullish(),
    })
    .nullish(),
});
export type UpstreamRun = z.infer<typeof UpstreamRun>;

/** An upstream list page (messages, runs). */
export const UpstreamList = z.looseObject({ data: z.array(z.looseObject({})) }).describe('A list page as the upstream answers it');
export type UpstreamList = z.infer<typeof UpstreamList>;

/** GET /oaic/v1/assistants: the tenant's assistants as recorded, newest first unless `order` says otherwise. */
export const AssistantList = z.object({
  object: z.literal('list'),
  data: z.array(z.looseObject({})),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});
export type AssistantList = z.infer<typeof AssistantList>;
