import { z } from 'zod';
import { KeyCreated, KeyView } from '../accounts/key.schema';
import { ProjectCreateRequest, ProjectList, ProjectListRequest, ProjectView } from '../accounts/project.schema';
import {
  AlertList,
  AlertListRequest,
  AlertSettingsSetRequest,
  AlertSettingsShowRequest,
  AlertSettingsView,
  WebhookEndpointSetRequest,
  WebhookEndpointShowReply,
  WebhookEndpointShowRequest,
  WebhookEndpointView,
} from '../alerts/alert-settings.schema';
import { BudgetClearReply, BudgetList, BudgetListRequest, BudgetSetRequest, BudgetShowReply, BudgetShowRequest, BudgetView } from '../budgets/budget.schema';
import {
  billingConfigureMessageOf,
  BillingConfigureReply,
  BillingConfigureRequest,
  UsageRequests,
  UsageRequestsRequest,
  UsageSummary,
  UsageSummaryRequest,
} from '../billing/billing.schema';
import { CachePurgeReply, CachePurgeRequest, CacheSetReply, CacheSetRequest } from '../cache/cache-admin.schema';
import { OidcConfigView, OidcConfigureRequest, OidcShowRequest } from '../console/console-oidc.schema';
import { ConsoleInviteRequest, ConsoleInviteView, ConsoleUserList, ConsoleUsersRequest } from '../console/console-people.schema';
import { ProjectGrantRequest, ProjectGrantView } from '../console/console-projects.schema';
import { ConsoleSessionList, SessionListRequest, SessionRevokeReply, SessionRevokeRequest } from '../console/console-session.schema';
import type { Rpc, RpcMessage, RpcReplyOf } from '../nats/rpc';
import { RPCS } from '../nats/rpcs';
import { DeadLetterList, DeadLetterListRequest, DeadLetterReplayReply, DeadLetterReplayRequest } from '../usage/dead-letter.schema';
import { LedgerPage, LedgerRequest, ReconcileReport, ReconcileRequest } from '../usage/money-views.schema';
import {
  WebhookDeliveriesRequest,
  WebhookDeliveryList,
  WebhookDeliveryView,
  WebhookRedeliverRequest,
  WebhookSecretRotateRequest,
  WebhookSecretView,
} from '../webhooks/webhook.schema';
import {
  ApplyResult,
  BalanceShowRequest,
  BalanceTopupRequest,
  BalanceView,
  KeyCreateRequest,
  KeyIdRequest,
  KeyListRequest,
  SubscriptionSetRequest,
  SubscriptionView,
  TenantCreateRequest,
  TenantView,
} from './admin.schema';
import { GatewayConfig } from './config.schema';
import { TenantGetRequest } from './lookup.schema';

/** Where a route's input is: a JSON body, the query string, the path's parameters, or nowhere. */
export type AdminInput = 'body' | 'query' | 'path' | 'none';

/** How a relayed route's parsed input becomes its subject's message, and the service's reply its answer. */
export interface AdminRelay<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, R extends Rpc = Rpc> {
  rpc: R;
  /** The message from the parsed input (`written`: the body as the client wrote it); the input itself when absent. */
  message?(input: z.output<I>, written: unknown): RpcMessage<R>;
  /** The route's answer from the service's reply; the reply itself when absent. */
  answer?(reply: RpcReplyOf<R>): z.input<O>;
}

/** One route of the admin API: what the edge registers, the CLI calls and the OpenAPI document describes. */
export interface AdminRoute<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST' | 'PUT';
  path: `/admin/${string}`;
  input: AdminInput;
  /** The input, parsed once by the edge (and typed for callers by its input form). */
  request: I;
  /** The answer. */
  reply: O;
  status?: 200 | 201;
  /** How long the edge waits for the service (30 s when absent). */
  timeoutMs?: number;
  /** Relayed to a service over NATS; absent when the edge answers it with a handler of its own (by the route's name). */
  relay?: AdminRelay<I, O, Rpc>;
}

export type RelayedAdminRoute<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = AdminRoute<I, O> & { relay: AdminRelay<I, O, Rpc> };
export type HandledAdminRoute<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = AdminRoute<I, O> & { relay?: undefined };

type Fits<A, B> = [A] extends [B] ? true : false;

/** `message` and `answer` may be left out only where the input fits the message and the reply the answer. */
type RelayHow<I extends z.ZodType, O extends z.ZodType, R extends Rpc> = (Fits<z.output<I>, RpcMessage<R>> extends true
  ? { message?: AdminRelay<I, O, R>['message'] }
  : { message: NonNullable<AdminRelay<I, O, R>['message']> }) &
  (Fits<RpcReplyOf<R>, z.input<O>> extends true ? { answer?: AdminRelay<I, O, R>['answer'] } : { answer: NonNullable<AdminRelay<I, O, R>['answer']> });

type Shape<I extends z.ZodType, O extends z.ZodType> = Omit<AdminRoute<I, O>, 'relay'>;

/** An admin route relayed to `rpc`'s subject: `message` and `answer` are asked for exactly where the shapes differ. */
function relayed<I extends z.ZodType, O extends z.ZodType, R extends Rpc>(
  shape: Shape<I, O>,
  rpc: R,
  ...how: Partial<RelayHow<I, O, R>> extends RelayHow<I, O, R> ? [RelayHow<I, O, R>?] : [RelayHow<I, O, R>]
): RelayedAdminRoute<I, O> {
  const relay: AdminRelay<I, O, R> = { rpc, ...how[0] };
  return { ...shape, relay: relay as AdminRelay<I, O, Rpc> };
}

/** An admin route the edge answers with a handler of its own, by the route's name. */
function handled<I extends z.ZodType, O extends z.ZodType>(shape: Shape<I, O>): HandledAdminRoute<I, O> {
  return shape;
}

const None = z.object({}).strict();
export const AdminHealth = z.object({ status: z.literal('ok') });
/** An OpenAPI document: its shape is the OpenAPI specification's. */
export const OpenApiDocument = z.record(z.string(), z.unknown());
export const KeyList = z.object({ data: z.array(KeyView) });

/** Reconciling every tenant reads the whole ledger once: it may take longer than a page. */
const BOOKS_TIMEOUT_MS = 120_000;

/** Every route of the admin API, by the name the operator's client calls it. */
export const ADMIN_ROUTES = {
  health: handled({ method: 'GET', path: '/admin/healthz', input: 'none', request: None, reply: AdminHealth }),
  /** This API described for other tools, built from this table. */
  openApi: handled({ method: 'GET', path: '/admin/openapi.json', input: 'none', request: None, reply: OpenApiDocument }),
  apply: relayed({ method: 'POST', path: '/admin/config/apply', input: 'body', request: GatewayConfig, reply: ApplyResult }, RPCS.accounts.config.apply, {
    // Validated for a precise error, sent as written: the parsed form holds BigInts, which JSON cannot carry.
    message: (_input, written) => written as RpcMessage<typeof RPCS.accounts.config.apply>,
  }),
  createTenant: relayed(
    { method: 'POST', path: '/admin/tenants', input: 'body', request: TenantCreateRequest, reply: TenantView, status: 201 },
    RPCS.accounts.tenants.create,
  ),
  getTenant: relayed({ method: 'GET', path: '/admin/tenants/:slug', input: 'path', request: TenantGetRequest, reply: TenantView }, RPCS.accounts.tenants.get),
  createKey: relayed(
    { method: 'POST', path: '/admin/keys', input: 'body', request: KeyCreateRequest, reply: KeyCreated, status: 201 },
    RPCS.accounts.keys.create,
  ),
  listKeys: relayed({ method: 'GET', path: '/admin/keys', input: 'query', request: KeyListRequest, reply: KeyList }, RPCS.accounts.keys.list, {
    answer: (keys) => ({ data: keys }),
  }),
  regenerateKey: relayed(
    { method: 'POST', path: '/admin/keys/:id/regenerate', input: 'path', request: KeyIdRequest, reply: KeyCreated },
    RPCS.accounts.keys.regenerate,
  ),
  revokeKey: relayed({ method: 'POST', path: '/admin/keys/:id/revoke', input: 'path', request: KeyIdRequest, reply: KeyView }, RPCS.accounts.keys.revoke),
  createProject: relayed(
    { method: 'POST', path: '/admin/projects', input: 'body', request: ProjectCreateRequest, reply: ProjectView, status: 201 },
    RPCS.accounts.projects.create,
  ),
  listProjects: relayed(
    { method: 'GET', path: '/admin/projects', input: 'query', request: ProjectListRequest, reply: ProjectList },
    RPCS.accounts.projects.list,
    { answer: (projects) => ({ data: projects }) },
  ),
  grantProjectRole: relayed(
    { method: 'PUT', path: '/admin/projects/members', input: 'body', request: ProjectGrantRequest, reply: ProjectGrantView },
    RPCS.accounts.projects.grant,
  ),
  setBudget: relayed({ method: 'PUT', path: '/admin/budget', input: 'body', request: BudgetSetRequest, reply: BudgetView }, RPCS.accounts.budgets.set, {
    message: ({ amount, ...rest }) => ({ ...rest, amountMicros: amount.toString() }),
  }),
  showBudget: relayed({ method: 'GET', path: '/admin/budget', input: 'query', request: BudgetShowRequest, reply: BudgetShowReply }, RPCS.accounts.budgets.show),
  clearBudget: relayed(
    { method: 'POST', path: '/admin/budget/clear', input: 'body', request: BudgetShowRequest, reply: BudgetClearReply },
    RPCS.accounts.budgets.clear,
  ),
  listBudgets: relayed({ method: 'GET', path: '/admin/budgets', input: 'query', request: BudgetListRequest, reply: BudgetList }, RPCS.accounts.budgets.list, {
    answer: (budgets) => ({ data: budgets }),
  }),
  setWebhookEndpoint: relayed(
    { method: 'PUT', path: '/admin/webhooks/endpoint', input: 'body', request: WebhookEndpointSetRequest, reply: WebhookEndpointView },
    RPCS.accounts.alerts.endpointSet,
  ),
  showWebhookEndpoint: relayed(
    { method: 'GET', path: '/admin/webhooks/endpoint', input: 'query', request: WebhookEndpointShowRequest, reply: WebhookEndpointShowReply },
    RPCS.accounts.alerts.endpointShow,
  ),
  setAlertSettings: relayed(
    { method: 'PUT', path: '/admin/alerts/settings', input: 'body', request: AlertSettingsSetRequest, reply: AlertSettingsView },
    RPCS.accounts.alerts.settingsSet,
    {
      message: ({ balanceBelow, ...rest }) => ({
        ...rest,
        ...(balanceBelow === undefined ? {} : { balanceBelowMicros: balanceBelow === null ? null : balanceBelow.toString() }),
      }),
    },
  ),
  showAlertSettings: relayed(
    { method: 'GET', path: '/admin/alerts/settings', input: 'query', request: AlertSettingsShowRequest, reply: AlertSettingsView },
    RPCS.accounts.alerts.settingsShow,
  ),
  listAlerts: relayed({ method: 'GET', path: '/admin/alerts', input: 'query', request: AlertListRequest, reply: AlertList }, RPCS.accounts.alerts.list, {
    answer: (alerts) => ({ data: alerts }),
  }),
  setSubscription: relayed(
    { method: 'PUT', path: '/admin/subscriptions', input: 'body', request: SubscriptionSetRequest, reply: SubscriptionView },
    RPCS.accounts.subscriptions.set,
  ),
  topup: relayed(
    { method: 'POST', path: '/admin/balance/topup', input: 'body', request: BalanceTopupRequest, reply: BalanceView },
    RPCS.accounts.balance.topup,
    {
      message: ({ tenant, amount }) => ({ tenant, amountMicros: amount.toString() }),
    },
  ),
  balance: relayed({ method: 'GET', path: '/admin/balance', input: 'query', request: BalanceShowRequest, reply: BalanceView }, RPCS.accounts.balance.show),
  usage: relayed(
    { method: 'GET', path: '/admin/usage', input: 'query', request: UsageSummaryRequest, reply: UsageSummary },
    RPCS.accounts.billing.usageSummary,
  ),
  usageRequests: relayed(
    { method: 'GET', path: '/admin/usage/requests', input: 'query', request: UsageRequestsRequest, reply: UsageRequests },
    RPCS.accounts.billing.usageRequests,
  ),
  configureBilling: relayed(
    { method: 'PUT', path: '/admin/billing', input: 'body', request: BillingConfigureRequest, reply: BillingConfigureReply },
    RPCS.accounts.billing.configure,
    {
      message: billingConfigureMessageOf,
    },
  ),
  deadLetters: relayed(
    { method: 'GET', path: '/admin/usage/dead-letters', input: 'query', request: DeadLetterListRequest, reply: DeadLetterList },
    RPCS.accounts.deadLetters.list,
  ),
  replayDeadLetters: relayed(
    { method: 'POST', path: '/admin/usage/dead-letters/replay', input: 'body', request: DeadLetterReplayRequest, reply: DeadLetterReplayReply },
    RPCS.accounts.deadLetters.replay,
  ),
  ledger: relayed(
    { method: 'GET', path: '/admin/ledger', input: 'query', request: LedgerRequest, reply: LedgerPage, timeoutMs: BOOKS_TIMEOUT_MS },
    RPCS.accounts.money.ledger,
  ),
  reconcile: relayed(
    { method: 'POST', path: '/admin/reconcile', input: 'body', request: ReconcileRequest, reply: ReconcileReport, timeoutMs: BOOKS_TIMEOUT_MS },
    RPCS.accounts.money.reconcile,
  ),
  setCache: relayed({ method: 'PUT', path: '/admin/cache', input: 'body', request: CacheSetRequest, reply: CacheSetReply }, RPCS.accounts.cache.set),
  /** Finds the tenant (accounts), then forgets its cached answers (chat). */
  purgeCache: handled({ method: 'POST', path: '/admin/cache/purge', input: 'body', request: CachePurgeRequest, reply: CachePurgeReply }),
  /** Finds the tenant (accounts), then rotates its secret (the webhook service). */
  rotateWebhookSecret: handled({
    method: 'POST',
    path: '/admin/webhooks/secret/rotate',
    input: 'body',
    request: WebhookSecretRotateRequest,
    reply: WebhookSecretView,
  }),
  webhookDeliveries: relayed(
    { method: 'GET', path: '/admin/webhooks/deliveries', input: 'query', request: WebhookDeliveriesRequest, reply: WebhookDeliveryList },
    RPCS.music.webhooks.deliveries,
  ),
  redeliverWebhook: relayed(
    { method: 'POST', path: '/admin/webhooks/deliveries/:id/redeliver', input: 'path', request: WebhookRedeliverRequest, reply: WebhookDeliveryView },
    RPCS.music.webhooks.redeliver,
  ),
  /** The invite, with the set-password link on the console's origin (which only the edge knows). */
  inviteConsoleUser: handled({
    method: 'POST',
    path: '/admin/console/invites',
    input: 'body',
    request: ConsoleInviteRequest,
    reply: ConsoleInviteView,
    status: 201,
  }),
  consoleUsers: relayed(
    { method: 'GET', path: '/admin/console/users', input: 'query', request: ConsoleUsersRequest, reply: ConsoleUserList },
    RPCS.accounts.console.users.list,
  ),
  consoleSessions: relayed(
    { method: 'GET', path: '/admin/console/sessions', input: 'query', request: SessionListRequest, reply: ConsoleSessionList },
    RPCS.accounts.console.sessions.list,
  ),
  revokeConsoleSessions: relayed(
    { method: 'POST', path: '/admin/console/sessions/revoke', input: 'body', request: SessionRevokeRequest, reply: SessionRevokeReply },
    RPCS.accounts.console.sessions.revoke,
  ),
  setConsoleOidc: relayed(
    { method: 'PUT', path: '/admin/console/oidc', input: 'body', request: OidcConfigureRequest, reply: OidcConfigView },
    RPCS.accounts.console.oidc.configure,
  ),
  consoleOidc: relayed(
    { method: 'GET', path: '/admin/console/oidc', input: 'query', request: OidcShowRequest, reply: OidcConfigView },
    RPCS.accounts.console.oidc.show,
  ),
} as const;

/** The helpers the table is written with, for a table of one's own (a spec's fixture). */
export { handled as handledAdminRoute, relayed as relayedAdminRoute };

export type AdminRoutes = typeof ADMIN_ROUTES;
export type AdminRouteName = keyof AdminRoutes;

/** The routes the edge answers with code of its own. */
export type HandledAdminRouteName = { [K in AdminRouteName]: AdminRoutes[K] extends RelayedAdminRoute ? never : K }[AdminRouteName];

/** What a caller sends to a route: its request schema's input form. */
export type AdminCallInput<R extends AdminRoute> = z.input<R['request']>;
/** What a caller gets back. */
export type AdminCallReply<R extends AdminRoute> = z.output<R['reply']>;
