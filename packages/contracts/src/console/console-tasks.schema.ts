import { z } from 'zod';
import { MicrosString } from '../money';
import { printableText } from '../inputs/input-text.schema';

/** Shapes of the tenant console's tasks page: media and music tasks, paged on the server, with their charge and refund. */

export const ConsoleTaskKind = z.enum(['media', 'music', 'batch']);
export type ConsoleTaskKind = z.infer<typeof ConsoleTaskKind>;

/** The statuses the page filters by, shared by every kind (each service maps its own words onto them). */
export const CONSOLE_TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export const ConsoleTaskStatus = z.enum(CONSOLE_TASK_STATUSES);
export type ConsoleTaskStatus = z.infer<typeof ConsoleTaskStatus>;

export const ConsoleTasksQuery = z
  .object({
    kind: ConsoleTaskKind.default('media'),
    status: ConsoleTaskStatus.optional(),
    cursor: printableText(256).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();
export type ConsoleTasksQuery = z.input<typeof ConsoleTasksQuery>;
/** What the edge sends the owning service: the query, the tenant, and the origin result links are signed for. */
export const ConsoleTasksMessage = ConsoleTasksQuery.omit({ kind: true }).extend({ tenantId: z.uuid(), origin: z.url() });
export type ConsoleTasksMessage = z.infer<typeof ConsoleTasksMessage>;

export const ConsoleTaskRow = z.object({
  id: z.string(),
  kind: ConsoleTaskKind,
  route: z.string(),
  model: z.string(),
  status: ConsoleTaskStatus,
  /** 0–100 where the service knows it. */
  progress: z.number().int().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  /** Signed links to the results, valid for a while. */
  results: z.array(z.url()),
  /** Files the task wrote (a batch's output and errors), read through the files API with a key. */
  fileIds: z.array(z.string()).default([]),
  /**
   * The billing request id of the task's hold: its charge and refund are the ledger's for it. Null for a
   * batch, whose lines hold and are charged one by one: its charge is that of its usage records.
   */
  holdId: z.string().nullable(),
});
export type ConsoleTaskRow = z.infer<typeof ConsoleTaskRow>;
export const ConsoleTaskServicePage = z.object({ data: z.array(ConsoleTaskRow), nextCursor: z.string().nullable() });
export type ConsoleTaskServicePage = z.infer<typeof ConsoleTaskServicePage>;

/** What the ledger held for a billing request, charged in the end, and gave back. */
export const ConsoleCharge = z.object({
  requestId: z.string(),
  heldMicros: MicrosString,
  chargedMicros: MicrosString,
  refundedMicros: MicrosString,
  charged: z.string(),
  refunded: z.string(),
});
export type ConsoleCharge = z.infer<typeof ConsoleCharge>;
/** By billing request id, or (`subjectIds`) summed over the usage records of a batch, task or run. */
export const ConsoleChargesMessage = z.object({
  tenantId: z.uuid(),
  requestIds: z.array(z.string().min(1).max(128)).max(100).default([]),
  subjectIds: z.array(z.string().min(1).max(128)).max(100).default([]),
});
export const ConsoleCharges = z.object({ data: z.array(ConsoleCharge) });

export const ConsoleTask = ConsoleTaskRow.extend({ charge: ConsoleCharge.nullable() });
export type ConsoleTask = z.infer<typeof ConsoleTask>;
export const ConsoleTaskPage = z.object({ data: z.array(ConsoleTask), nextCursor: z.string().nullable() });
export type ConsoleTaskPage = z.infer<typeof ConsoleTaskPage>;
