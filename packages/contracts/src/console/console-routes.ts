import { z } from 'zod';
import { KeyIdRequest, TenantCreateRequest } from '../admin/admin.schema';
import { TenantGetRequest } from '../admin/lookup.schema';
import { DeadLetterReplayRequest } from '../usage/dead-letter.schema';
import type { ConsoleGrant } from './console-people.schema';
import { ConsoleInviteAccepted, ConsoleInviteInfo, AcceptInviteRequest, InviteTokenRequest } from './console-people.schema';
import { SignInRequest } from './console-session.schema';
import {
  ConsoleBalance,
  ConsoleKeyCreateRequest,
  ConsoleKeyList,
  ConsoleKeySecret,
  ConsoleKeyView,
  ConsoleMe,
  ConsoleModelList,
  ConsoleTenant,
  ConsoleTenantPage,
  ConsoleTenantsRequest,
  ConsoleTopupRequest,
  ConsoleWebhookSecret,
  OperatorSignInRequest,
} from './console-api.schema';
import { ConsoleKeyLimits, ConsoleKeyLimitsRequest } from './console-key-limits.schema';
import { BudgetView } from '../budgets/budget.schema';
import {
  ConsoleBudgetCleared,
  ConsoleBudgetRequest,
  ConsoleProjectGrantRequest,
  ConsoleProjectList,
  ConsoleProjectPath,
  ProjectGrantView,
} from './console-projects.schema';
import {
  ConsoleCatalogHealthPage,
  ConsoleCatalogRequest,
  ConsoleDeadLetter,
  ConsoleDeadLetterId,
  ConsoleDeadLetterPage,
  ConsoleDeadLettersRequest,
  ConsoleQueuePage,
  ConsoleQueuesRequest,
  ConsoleReconcileRequest,
  ConsoleReconcileStatus,
  ConsoleReplayReply,
  ConsoleSubscription,
  ConsoleSubscriptionRequest,
  ConsoleTenantDetail,
} from './console-operator.schema';
import { ConsoleTaskPage, ConsoleTasksQuery } from './console-tasks.schema';
import { AlertList, WebhookEndpointShowReply, WebhookEndpointView } from '../alerts/alert-settings.schema';
import { ConsoleAlertEndpointRequest, ConsoleAlertsQuery } from './console-alerts.schema';
import {
  ConsoleOverview,
  ConsoleUsageExportQuery,
  ConsoleUsageQuery,
  ConsoleUsageRecordDetail,
  ConsoleUsageRecordPage,
  ConsoleUsageRecordPath,
  ConsoleUsageRecordsQuery,
  ConsoleUsageSummary,
} from './console-usage.schema';
import { ConsoleDeliveriesQuery, ConsoleDelivery, ConsoleDeliveryIdRequest, ConsoleDeliveryPage } from './console-webhooks.schema';

/**
 * Who may call a console route: anyone from the console's own origin (`open`: signing in, invite links),
 * any signed-in session of its side (`session`), or a tenant session whose role holds the grant.
 */
export type ConsoleAccess = 'open' | 'session' | ConsoleGrant;

/** One route of the console API: what the edge registers and the console's pages call. */
export interface ConsoleRoute<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  O extends z.ZodType = z.ZodType,
> {
  /** The listener: the tenant console (public) or the operator console (admin). */
  side: 'tenant' | 'operator';
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: `/console/api/${string}`;
  routeId: `console.${string}`;
  access: ConsoleAccess;
  /** The path's parameters, the query and the JSON body, each parsed once by the edge where given. */
  params?: P;
  query?: Q;
  body?: B;
  reply: O;
  status?: 200 | 201 | 204;
  /** How long the edge waits for its service (15 s when absent). */
  timeoutMs?: number;
}

/** A part's parsed form, or nothing to add when the route has no such part. */
type Out<S> = [NonNullable<S>] extends [never] ? unknown : [NonNullable<S>] extends [z.ZodType] ? z.output<NonNullable<S>> : unknown;
type In<S> = [NonNullable<S>] extends [never] ? unknown : [NonNullable<S>] extends [z.ZodType] ? z.input<NonNullable<S>> : unknown;

/** The route's input as the edge holds it once parsed: parameters, query and body fields together. */
export type ConsoleRouteInput<R extends ConsoleRoute> = Out<R['params']> & Out<R['query']> & Out<R['body']>;
/** What a page sends: the input form of each part, together. */
export type ConsoleCallInput<R extends ConsoleRoute> = In<R['params']> & In<R['query']> & In<R['body']>;
/** What the page gets back. */
export type ConsoleCallReply<R extends ConsoleRoute> = z.output<R['reply']>;

function route<
  S extends ConsoleRoute['side'],
  A extends ConsoleAccess,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  O extends z.ZodType = z.ZodType,
>(entry: ConsoleRoute<P, Q, B, O> & { side: S; access: A }): ConsoleRoute<P, Q, B, O> & { side: S; access: A } {
  return entry;
}

/** A 204 answer: nothing to read. */
export const NoContent = z.undefined();
/** A CSV file, streamed: pages link to it rather than read it. */
export const CsvFile = z.string();

/** Reconciling every tenant reads the whole ledger once. */
const BOOKS_TIMEOUT_MS = 120_000;

/** Every route of the console API on both listeners, by the name the pages call it (the two single sign-on redirects aside). */
export const CONSOLE_ROUTES = {
  session: route({ side: 'tenant', method: 'GET', path: '/console/api/session', routeId: 'console.session', access: 'session', reply: ConsoleMe }),
  signIn: route({
    side: 'tenant',
    method: 'POST',
    path: '/console/api/session',
    routeId: 'console.sign-in',
    access: 'open',
    body: SignInRequest,
    reply: ConsoleMe,
  }),
  signOut: route({
    side: 'tenant',
    method: 'DELETE',
    path: '/console/api/session',
    routeId: 'console.sign-out',
    access: 'session',
    reply: NoContent,
    status: 204,
  }),
  // The invite token travels in the body, never in a URL a log or a Referer could keep.
  inviteLookup: route({
    side: 'tenant',
    method: 'POST',
    path: '/console/api/invites/lookup',
    routeId: 'console.invite-lookup',
    access: 'open',
    body: InviteTokenRequest,
    reply: ConsoleInviteInfo,
  }),
  inviteAccept: route({
    side: 'tenant',
    method: 'POST',
    path: '/console/api/invites/accept',
    routeId: 'console.invite-accept',
    access: 'open',
    body: AcceptInviteRequest,
    reply: ConsoleInviteAccepted,
  }),
  keys: route({ side: 'tenant', method: 'GET', path: '/console/api/keys', routeId: 'console.keys', access: 'read', reply: ConsoleKeyList }),
  createKey: route({
    side: 'tenant',
    method: 'POST',
    path: '/console/api/keys',
    routeId: 'console.key-create',
    access: 'keys',
    body: ConsoleKeyCreateRequest,
    reply: ConsoleKeySecret,
    status: 201,
  }),
  regenerateKey: route({
    side: 'tenant',
    method: 'POST',
    path: '/console/api/keys/:id/regenerate',
    routeId: 'console.key-regenerate',
    access: 'keys',
    params: KeyIdRequest,
    reply: ConsoleKeySecret,
  }),
  revokeKey: route({
    side: 'tenant',
    method: 'POST',
    path: '/console/api/keys/:id/revoke',
    routeId: 'console.key-revoke',
    access: 'keys',
    params: KeyIdRequest,
    reply: ConsoleKeyView,
  }),
  rotateWebhookSecret: route({
    side: 'tenant',
    method: 'POST',
    path: '/console/api/webhooks/secret/rotate',
    routeId: 'console.webhook-secret',
    access: 'webhooks',
    reply: ConsoleWebhookSecret,
  }),
  alerts: route({
    side: 'tenant',
    method: 'GET',
    path: '/console/api/alerts',
    routeId: 'console.alerts',
    access: 'read',
    query: ConsoleAlertsQuery,
    reply: AlertList,
  }),
  alertEndpoint: route({
    side: 'tenant',
    method: 'GET',
    path: '/console/api/alerts/endpoint',
    routeId: 'console.alert-endpoint',
    access: 'read',
    reply: WebhookEndpointShowReply,
  }),
  setAlertEndpoint: route({
    side: 'tenant',
    method: 'PUT',
    path: '/console/api/alerts/endpoint',
    routeId: 'console.alert-endpoint-set',
    access: 'webhooks',
    body: ConsoleAlertEndpointRequest,
    reply: WebhookEndpointView,
  }),
  models: route({ side: 'tenant', method: 'GET', path: '/console/api/models', routeId: 'console.models', access: 'read', reply: ConsoleModelList }),
  balance: route({ side: 'tenant', method: 'GET', path: '/console/api/balance', routeId: 'console.balance', access: 'read', reply: ConsoleBalance }),
  overview: route({ side: 'tenant', method: 'GET', path: '/console/api/overview', routeId: 'console.overview', access: 'read', reply: ConsoleOverview }),
  usageSummary: route({
    side: 'tenant',
    method: 'GET',
    path: '/console/api/usage/summary',
    routeId: 'console.usage-summary',
    access: 'read',
    query: ConsoleUsageQuery,
    reply: ConsoleUsageSummary,
  }),
  usageRecords: route({
    side: 'tenant',
    method: 'GET',
    path: '/console/api/usage/records',
    routeId: 'console.usage-records',
    access: 'read',
    query: ConsoleUsageRecordsQuery,
    reply: ConsoleUsageRecordPage,
  }),
  usageRecord: route({
    side: 'tenant',
    method: 'GET',
    path: '/console/api/usage/records/:requestId',
    routeId: 'console.usage-record',
    access: 'read',
    params: ConsoleUsageRecordPath,
    reply: ConsoleUsageRecordDetail,
  }),
  usageExport: route({
    side: 'tenant',
    method: 'GET',
    path: '/console/api/usage/export.csv',
    routeId: 'console.usage-export',
    access: 'read',
    query: ConsoleUsageExportQuery,
    reply: CsvFile,
  }),
  tasks: route({
    side: 'tenant',
    method: 'GET',
    path: '/console/api/tasks',
    routeId: 'console.tasks',
    access: 'read',
    query: ConsoleTasksQuery,
    reply: ConsoleTaskPage,
  }),
  deliveries: route({
    side: 'tenant',
    method: 'GET',
    path: '/console/api/webhooks/deliveries',
    routeId: 'console.webhook-deliveries',
    access: 'read',
    query: ConsoleDeliveriesQuery,
    reply: ConsoleDeliveryPage,
  }),
  redeliver: route({
    side: 'tenant',
    method: 'POST',
    path: '/console/api/webhooks/deliveries/:id/redeliver',
    routeId: 'console.webhook-redeliver',
    access: 'webhooks',
    params: ConsoleDeliveryIdRequest,
    reply: ConsoleDelivery,
  }),
  keyLimits: route({
    side: 'tenant',
    method: 'GET',
    path: '/console/api/keys/:id/limits',
    routeId: 'console.key-limits',
    access: 'read',
    params: KeyIdRequest,
    reply: ConsoleKeyLimits,
  }),
  setKeyLimits: route({
    side: 'tenant',
    method: 'PUT',
    path: '/console/api/keys/:id/limits',
    routeId: 'console.key-limits-set',
    access: 'keys',
    params: KeyIdRequest,
    body: ConsoleKeyLimitsRequest,
    reply: ConsoleKeyLimits,
  }),
  projects: route({ side: 'tenant', method: 'GET', path: '/console/api/projects', routeId: 'console.projects', access: 'read', reply: ConsoleProjectList }),
  // Budgets are open to every role here: accounts checks the person's rights on the key's or project's project.
  setProjectBudget: route({
    side: 'tenant',
    method: 'PUT',
    path: '/console/api/projects/:project/budget',
    routeId: 'console.project-budget-set',
    access: 'read',
    params: ConsoleProjectPath,
    body: ConsoleBudgetRequest,
    reply: BudgetView,
  }),
  clearProjectBudget: route({
    side: 'tenant',
    method: 'DELETE',
    path: '/console/api/projects/:project/budget',
    routeId: 'console.project-budget-clear',
    access: 'read',
    params: ConsoleProjectPath,
    reply: ConsoleBudgetCleared,
  }),
  setKeyBudget: route({
    side: 'tenant',
    method: 'PUT',
    path: '/console/api/keys/:id/budget',
    routeId: 'console.key-budget-set',
    access: 'read',
    params: KeyIdRequest,
    body: ConsoleBudgetRequest,
    reply: BudgetView,
  }),
  clearKeyBudget: route({
    side: 'tenant',
    method: 'DELETE',
    path: '/console/api/keys/:id/budget',
    routeId: 'console.key-budget-clear',
    access: 'read',
    params: KeyIdRequest,
    reply: ConsoleBudgetCleared,
  }),
  grantProjectRole: route({
    side: 'tenant',
    method: 'PUT',
    path: '/console/api/projects/:project/members',
    routeId: 'console.project-grant',
    access: 'people',
    params: ConsoleProjectPath,
    body: ConsoleProjectGrantRequest,
    reply: ProjectGrantView,
  }),

  operatorSession: route({
    side: 'operator',
    method: 'GET',
    path: '/console/api/session',
    routeId: 'console.operator-session',
    access: 'session',
    reply: ConsoleMe,
  }),
  operatorSignIn: route({
    side: 'operator',
    method: 'POST',
    path: '/console/api/session',
    routeId: 'console.operator-sign-in',
    access: 'open',
    body: OperatorSignInRequest,
    reply: ConsoleMe,
  }),
  operatorSignOut: route({
    side: 'operator',
    method: 'DELETE',
    path: '/console/api/session',
    routeId: 'console.operator-sign-out',
    access: 'session',
    reply: NoContent,
    status: 204,
  }),
  tenants: route({
    side: 'operator',
    method: 'GET',
    path: '/console/api/tenants',
    routeId: 'console.tenants',
    access: 'session',
    query: ConsoleTenantsRequest,
    reply: ConsoleTenantPage,
  }),
  createTenant: route({
    side: 'operator',
    method: 'POST',
    path: '/console/api/tenants',
    routeId: 'console.tenant-create',
    access: 'session',
    body: TenantCreateRequest,
    reply: ConsoleTenant,
    status: 201,
  }),
  topUp: route({
    side: 'operator',
    method: 'POST',
    path: '/console/api/tenants/:slug/topup',
    routeId: 'console.tenant-topup',
    access: 'session',
    params: TenantGetRequest,
    body: ConsoleTopupRequest,
    reply: ConsoleBalance,
  }),
  tenantDetail: route({
    side: 'operator',
    method: 'GET',
    path: '/console/api/tenants/:slug',
    routeId: 'console.tenant-detail',
    access: 'session',
    params: TenantGetRequest,
    reply: ConsoleTenantDetail,
  }),
  tenantProjects: route({
    side: 'operator',
    method: 'GET',
    path: '/console/api/tenants/:slug/projects',
    routeId: 'console.tenant-projects',
    access: 'session',
    params: TenantGetRequest,
    reply: ConsoleProjectList,
  }),
  setSubscription: route({
    side: 'operator',
    method: 'PUT',
    path: '/console/api/tenants/:slug/subscription',
    routeId: 'console.tenant-subscription',
    access: 'session',
    params: TenantGetRequest,
    body: ConsoleSubscriptionRequest,
    reply: ConsoleSubscription,
  }),
  catalog: route({
    side: 'operator',
    method: 'GET',
    path: '/console/api/catalog',
    routeId: 'console.catalog',
    access: 'session',
    query: ConsoleCatalogRequest,
    reply: ConsoleCatalogHealthPage,
  }),
  deadLetters: route({
    side: 'operator',
    method: 'GET',
    path: '/console/api/dead-letters',
    routeId: 'console.dead-letters',
    access: 'session',
    query: ConsoleDeadLettersRequest,
    reply: ConsoleDeadLetterPage,
  }),
  deadLetter: route({
    side: 'operator',
    method: 'GET',
    path: '/console/api/dead-letters/:id',
    routeId: 'console.dead-letter',
    access: 'session',
    params: ConsoleDeadLetterId,
    reply: ConsoleDeadLetter,
  }),
  replayDeadLetters: route({
    side: 'operator',
    method: 'POST',
    path: '/console/api/dead-letters/replay',
    routeId: 'console.dead-letters-replay',
    access: 'session',
    body: DeadLetterReplayRequest,
    reply: ConsoleReplayReply,
  }),
  queues: route({
    side: 'operator',
    method: 'GET',
    path: '/console/api/queues',
    routeId: 'console.queues',
    access: 'session',
    query: ConsoleQueuesRequest,
    reply: ConsoleQueuePage,
  }),
  reconciliation: route({
    side: 'operator',
    method: 'GET',
    path: '/console/api/reconciliation',
    routeId: 'console.reconciliation',
    access: 'session',
    query: ConsoleReconcileRequest,
    reply: ConsoleReconcileStatus,
  }),
  runReconciliation: route({
    side: 'operator',
    method: 'POST',
    path: '/console/api/reconciliation',
    routeId: 'console.reconciliation-run',
    access: 'session',
    query: ConsoleReconcileRequest,
    reply: ConsoleReconcileStatus,
    timeoutMs: BOOKS_TIMEOUT_MS,
  }),
} as const;

export type ConsoleRouteTable = typeof CONSOLE_ROUTES;
export type ConsoleRouteName = keyof ConsoleRouteTable;
