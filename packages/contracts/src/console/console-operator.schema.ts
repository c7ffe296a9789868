import { z } from 'zod';
import { Capability } from '../accounts/catalog.schema';
import { BalanceView, SubscriptionView, TenantView } from '../admin/admin.schema';
import { ProviderProtocol } from '../admin/config.schema';
import { SubscriptionProfile, UsagePlanWindow, UsageSummaryRow } from '../billing/billing.schema';
import { DeadLetterConsumer, DeadLetterReplayReply, DeadLetterView } from '../usage/dead-letter.schema';
import { ReconcileTenant } from '../usage/money-views.schema';
import { InputTime, isPrintable } from '../inputs/input-text.schema';

// Shapes of the operator console's pages past the tenants list: a tenant's detail, the catalog with its
// channels' health, dead letters, queue depths and reconciliation.

/** How an operator console list is asked for: offset and limit, and a search where the list has one. */
const Paging = {
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
};

// ---- a tenant's detail

/** The tenant, its balance, its subscription and its spend this month by kind and by model. */
export const ConsoleTenantDetail = z.object({
  tenant: TenantView,
  balance: BalanceView,
  subscription: SubscriptionProfile.nullable(),
  /** The month the spend covers: from its first instant (UTC) to now. */
  since: z.string(),
  byKind: z.array(UsageSummaryRow),
  byModel: z.array(UsageSummaryRow),
  plan: z.array(UsagePlanWindow).optional(),
});
export type ConsoleTenantDetail = z.infer<typeof ConsoleTenantDetail>;

/** A plan or custom subscription's new end, and the subscription as it then is. */
export const ConsoleSubscription = SubscriptionView;
export const ConsoleSubscriptionRequest = z.object({ expires: InputTime }).strict();

// ---- the catalog

export const ConsoleCatalogRequest = z
  .object({ ...Paging, search: z.string().trim().max(64).refine(isPrintable, 'control characters are not allowed').optional() })
  .strict();
export type ConsoleCatalogRequest = z.input<typeof ConsoleCatalogRequest>;

export const ConsoleCatalogChannel = z.object({
  id: z.string(),
  providerId: z.string(),
  protocol: ProviderProtocol,
  /** The upstream's host: the base URL without path, query or credentials. */
  host: z.string(),
  upstreamModel: z.string(),
  priority: z.number().int(),
  weight: z.number().int(),
});
export type ConsoleCatalogChannel = z.infer<typeof ConsoleCatalogChannel>;

export const ConsoleCatalogModel = z.object({
  id: z.string(),
  displayName: z.string(),
  capability: Capability,
  isPublic: z.boolean(),
  channels: z.array(ConsoleCatalogChannel),
});
export type ConsoleCatalogModel = z.infer<typeof ConsoleCatalogModel>;

export const ConsoleCatalogPage = z.object({ data: z.array(ConsoleCatalogModel), total: z.number().int(), offset: z.number().int(), limit: z.number().int() });
export type ConsoleCatalogPage = z.infer<typeof ConsoleCatalogPage>;

/** One histogram bucket: observations at or below `le` seconds (cumulative, as Prometheus keeps them). */
export const LatencyBucket = z.object({ le: z.number(), count: z.number().nonnegative() });

/** One process's counters for one channel, since the process started. */
export const ChannelCounters = z.object({
  channel: z.string(),
  /** Upstream calls that got response headers. */
  answered: z.number().nonnegative(),
  /** Calls that failed: a non-2xx status or no answer at all. */
  errors: z.number().nonnegative(),
  /** Calls that got no answer (connection error, timeout): counted in errors, not in answered. */
  unanswered: z.number().nonnegative(),
  /** Refusals that stand for a rate limit or a spent quota, whatever status the vendor sent: counted in errors. */
  throttled: z.number().nonnegative().default(0),
  failovers: z.number().nonnegative(),
  latencySumSeconds: z.number().nonnegative(),
  buckets: z.array(LatencyBucket),
});
export type ChannelCounters = z.infer<typeof ChannelCounters>;

/** One process's answer to the channel-health broadcast. */
export const ChannelHealthReading = z.object({ app: z.string(), pid: z.number().int(), channels: z.array(ChannelCounters) });
export type ChannelHealthReading = z.infer<typeof ChannelHealthReading>;

/** A channel's health summed over every process that answered. */
export const ChannelHealth = z.object({
  calls: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  /** errors / calls, 0 to 1; null before the first call. */
  errorRate: z.number().min(0).max(1).nullable(),
  /** Rate limits and spent quotas among the errors (429s, Bedrock's throttling and quota exceptions). */
  throttled: z.number().int().nonnegative(),
  failovers: z.number().int().nonnegative(),
  latencyMeanMs: z.number().nonnegative().nullable(),
  /** Upper bound of the histogram bucket the 95th percentile falls in; null before the first answer. */
  latencyP95Ms: z.number().nonnegative().nullable(),
});
export type ChannelHealth = z.infer<typeof ChannelHealth>;

export const ConsoleCatalogHealthPage = z.object({
  data: z.array(ConsoleCatalogModel.extend({ channels: z.array(ConsoleCatalogChannel.extend({ health: ChannelHealth })) })),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  /** Processes whose counters are summed (each counts since it started). */
  processes: z.array(z.object({ app: z.string(), pid: z.number().int() })),
});
export type ConsoleCatalogHealthPage = z.infer<typeof ConsoleCatalogHealthPage>;

// ---- dead letters

export const ConsoleDeadLettersRequest = z
  .object({
    consumer: DeadLetterConsumer.optional(),
    /** The last id of the page before; absent: the first page. */
    after: z
      .string()
      .regex(/^\d{1,15}$/, 'expected a dead letter id')
      .optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();
export type ConsoleDeadLettersRequest = z.input<typeof ConsoleDeadLettersRequest>;

const PerConsumer = z.object({ usage: z.number().int().nonnegative(), ledger: z.number().int().nonnegative() });

export const ConsoleDeadLetterPage = z.object({
  data: z.array(DeadLetterView),
  /** The id to ask `after` for the next page; null on the last page. */
  next: z.string().nullable(),
  stored: PerConsumer,
});
export type ConsoleDeadLetterPage = z.infer<typeof ConsoleDeadLetterPage>;

/** One dead letter as a page lists it, and the answer to a replay. */
export const ConsoleDeadLetterRow = DeadLetterView;
export type ConsoleDeadLetterRow = z.infer<typeof ConsoleDeadLetterRow>;
export const ConsoleReplayReply = DeadLetterReplayReply;

export const ConsoleDeadLetterId = z.object({ id: z.string().regex(/^[1-9]\d{0,14}$/, 'expected a dead letter id (a positive integer)') }).strict();

/** One dead letter in full: its error and its payload (control characters escaped), as a replay would put it back. */
export const ConsoleDeadLetter = DeadLetterView.omit({ preview: true }).extend({ payload: z.string() });
export type ConsoleDeadLetter = z.infer<typeof ConsoleDeadLetter>;

// ---- queues

export const ConsoleQueuesRequest = z.object(Paging).strict();
export type ConsoleQueuesRequest = z.input<typeof ConsoleQueuesRequest>;

export const ConsoleQueueRow = z.object({
  /** The service whose queue it is (its key prefix names it). */
  role: z.string(),
  queue: z.string(),
  waiting: z.number().int().nonnegative(),
  active: z.number().int().nonnegative(),
  delayed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Seconds the oldest waiting job has waited; null with none waiting. */
  oldestWaitingSeconds: z.number().nonnegative().nullable(),
});
export type ConsoleQueueRow = z.infer<typeof ConsoleQueueRow>;

export const ConsoleQueuePage = z.object({ data: z.array(ConsoleQueueRow), total: z.number().int(), offset: z.number().int(), limit: z.number().int() });
export type ConsoleQueuePage = z.infer<typeof ConsoleQueuePage>;

// ---- reconciliation

export const ConsoleReconcileRequest = z.object(Paging).strict();
export type ConsoleReconcileRequest = z.input<typeof ConsoleReconcileRequest>;

/** The last reconciliation of every tenant: its totals and a page of the tenants whose books do not hold. */
export const ConsoleReconcileStatus = z.object({
  last: z
    .object({
      at: z.string(),
      ok: z.boolean(),
      checked: z.number().int(),
      tookMs: z.number().int(),
      failingTotal: z.number().int(),
      failing: z.array(ReconcileTenant),
    })
    .nullable(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type ConsoleReconcileStatus = z.infer<typeof ConsoleReconcileStatus>;
