import { KeyCreated, KeyView } from '../accounts/key.schema';
import { ProjectCreateRequest, ProjectListReply, ProjectListRequest, ProjectView } from '../accounts/project.schema';
import {
  BudgetClearReply,
  BudgetListReply,
  BudgetListRequest,
  BudgetSetMessage,
  BudgetShowMessage,
  BudgetShowReply,
  BudgetView,
  KeyBudgetsReply,
  KeyBudgetsRequest,
} from '../budgets/budget.schema';
import {
  AlertListMessage,
  AlertListReply,
  AlertSettingsSetMessage,
  AlertSettingsShowRequest,
  AlertSettingsView,
  WebhookEndpointSetRequest,
  WebhookEndpointShowReply,
  WebhookEndpointShowRequest,
  WebhookEndpointView,
} from '../alerts/alert-settings.schema';
import {
  ApplyResult,
  BalanceShowRequest,
  BalanceTopupMessage,
  BalanceView,
  KeyCreateRequest,
  KeyIdMessage,
  KeyListRequest,
  SubscriptionSetRequest,
  SubscriptionView,
  TenantCreateRequest,
  TenantView,
} from '../admin/admin.schema';
import { GatewayConfig } from '../admin/config.schema';
import { KeyListReply, TenantGetRequest } from '../admin/lookup.schema';
import {
  BillingProfile,
  BillingProfileRequest,
  BillingConfigureMessage,
  BillingConfigureReply,
  UsageRequests,
  UsageRequestsRequest,
  UsageSummary,
  UsageSummaryRequest,
} from '../billing/billing.schema';
import { CachePurgeMessage, CachePurgeReply, CacheSetReply, CacheSetRequest } from '../cache/cache-admin.schema';
import { ConsoleModelList, ConsoleModelsRequest, ConsoleTenantPage, ConsoleTenantsRequest } from '../console/console-api.schema';
import {
  ConsoleSessionIssued,
  OpenOperatorSessionMessage,
  SessionResolveReply,
  SessionResolveRequest,
  SignInMessage,
  SignOutMessage,
} from '../console/console-session.schema';
import { ConsoleCharges, ConsoleChargesMessage, ConsoleTaskServicePage, ConsoleTasksMessage } from '../console/console-tasks.schema';
import { ConsoleKeyLimits, ConsoleKeyLimitsMessage, ConsoleKeyLimitsSetMessage } from '../console/console-key-limits.schema';
import {
  ConsoleBudgetCleared,
  ConsoleBudgetClearMessage,
  ConsoleBudgetSetMessage,
  ConsoleProjectList,
  ConsoleProjectsMessage,
  ConsoleTenantProjectsMessage,
  ProjectGrantRequest,
  ProjectGrantView,
} from '../console/console-projects.schema';
import { OidcBeginReply, OidcBeginRequest, OidcCompleteRequest, OidcConfigView, OidcConfigureRequest, OidcShowRequest } from '../console/console-oidc.schema';
import {
  ConsoleCatalogPage,
  ConsoleCatalogRequest,
  ConsoleDeadLetter,
  ConsoleDeadLetterId,
  ConsoleDeadLetterPage,
  ConsoleDeadLettersRequest,
  ConsoleQueuePage,
  ConsoleQueuesRequest,
  ConsoleReconcileRequest,
  ConsoleReconcileStatus,
} from '../console/console-operator.schema';
import {
  AcceptInviteRequest,
  ConsoleInviteAccepted,
  ConsoleInviteInfo,
  ConsoleInviteIssued,
  ConsoleInviteRequest,
  ConsoleUserList,
  ConsoleUsersRequest,
  InviteTokenRequest,
} from '../console/console-people.schema';
import {
  ConsoleOverview,
  ConsoleOverviewMessage,
  ConsoleUsageMessage,
  ConsoleUsageRecordDetail,
  ConsoleUsageRecordMessage,
  ConsoleUsageRecordPage,
  ConsoleUsageRecordsMessage,
  ConsoleUsageSummary,
} from '../console/console-usage.schema';
import { ConsoleDeliveriesMessage, ConsoleDelivery, ConsoleDeliveryPage, ConsoleRedeliverMessage } from '../console/console-webhooks.schema';
import { ConsoleSessionList, SessionListRequest, SessionRevokeReply, SessionRevokeRequest } from '../console/console-session.schema';
import { DeadLetterList, DeadLetterListRequest, DeadLetterReplayReply, DeadLetterReplayRequest } from '../usage/dead-letter.schema';
import { LedgerPage, LedgerRequest, ReconcileReport, ReconcileRequest } from '../usage/money-views.schema';
import {
  WebhookDeliveriesRequest,
  WebhookDeliveryList,
  WebhookDeliveryView,
  WebhookRedeliverRequest,
  WebhookSecretRotateMessage,
  WebhookSecretView,
} from '../webhooks/webhook.schema';
import { rpc } from './rpc';
import { SUBJECTS } from './subjects';

/**
 * Subjects with their request and reply schemas, grouped as SUBJECTS is: a caller's message and a
 * handler's answer are checked against them at compile time. The operator's subjects are all here.
 */
export const RPCS = {
  accounts: {
    config: { apply: rpc(SUBJECTS.accounts.config.apply, GatewayConfig, ApplyResult) },
    tenants: {
      create: rpc(SUBJECTS.accounts.tenants.create, TenantCreateRequest, TenantView),
      get: rpc(SUBJECTS.accounts.tenants.get, TenantGetRequest, TenantView),
    },
    keys: {
      create: rpc(SUBJECTS.accounts.keys.create, KeyCreateRequest, KeyCreated),
      list: rpc(SUBJECTS.accounts.keys.list, KeyListRequest, KeyListReply),
      regenerate: rpc(SUBJECTS.accounts.keys.regenerate, KeyIdMessage, KeyCreated),
      revoke: rpc(SUBJECTS.accounts.keys.revoke, KeyIdMessage, KeyView),
    },
    projects: {
      create: rpc(SUBJECTS.accounts.projects.create, ProjectCreateRequest, ProjectView),
      list: rpc(SUBJECTS.accounts.projects.list, ProjectListRequest, ProjectListReply),
      grant: rpc(SUBJECTS.accounts.projects.grant, ProjectGrantRequest, ProjectGrantView),
    },
    budgets: {
      set: rpc(SUBJECTS.accounts.budgets.set, BudgetSetMessage, BudgetView),
      show: rpc(SUBJECTS.accounts.budgets.show, BudgetShowMessage, BudgetShowReply),
      list: rpc(SUBJECTS.accounts.budgets.list, BudgetListRequest, BudgetListReply),
      clear: rpc(SUBJECTS.accounts.budgets.clear, BudgetShowMessage, BudgetClearReply),
      ofKey: rpc(SUBJECTS.accounts.budgets.ofKey, KeyBudgetsRequest, KeyBudgetsReply),
    },
    alerts: {
      endpointSet: rpc(SUBJECTS.accounts.alerts.endpointSet, WebhookEndpointSetRequest, WebhookEndpointView),
      endpointShow: rpc(SUBJECTS.accounts.alerts.endpointShow, WebhookEndpointShowRequest, WebhookEndpointShowReply),
      settingsSet: rpc(SUBJECTS.accounts.alerts.settingsSet, AlertSettingsSetMessage, AlertSettingsView),
      settingsShow: rpc(SUBJECTS.accounts.alerts.settingsShow, AlertSettingsShowRequest, AlertSettingsView),
      list: rpc(SUBJECTS.accounts.alerts.list, AlertListMessage, AlertListReply),
    },
    subscriptions: { set: rpc(SUBJECTS.accounts.subscriptions.set, SubscriptionSetRequest, SubscriptionView) },
    balance: {
      topup: rpc(SUBJECTS.accounts.balance.topup, BalanceTopupMessage, BalanceView),
      show: rpc(SUBJECTS.accounts.balance.show, BalanceShowRequest, BalanceView),
    },
    billing: {
      usageSummary: rpc(SUBJECTS.accounts.billing.usageSummary, UsageSummaryRequest, UsageSummary),
      usageRequests: rpc(SUBJECTS.accounts.billing.usageRequests, UsageRequestsRequest, UsageRequests),
      configure: rpc(SUBJECTS.accounts.billing.configure, BillingConfigureMessage, BillingConfigureReply),
      profile: rpc(SUBJECTS.accounts.billing.profile, BillingProfileRequest, BillingProfile),
    },
    deadLetters: {
      list: rpc(SUBJECTS.accounts.deadLetters.list, DeadLetterListRequest, DeadLetterList),
      replay: rpc(SUBJECTS.accounts.deadLetters.replay, DeadLetterReplayRequest, DeadLetterReplayReply),
    },
    cache: { set: rpc(SUBJECTS.accounts.cache.set, CacheSetRequest, CacheSetReply) },
    money: {
      ledger: rpc(SUBJECTS.accounts.money.ledger, LedgerRequest, LedgerPage),
      reconcile: rpc(SUBJECTS.accounts.money.reconcile, ReconcileRequest, ReconcileReport),
    },
    console: {
      users: {
        invite: rpc(SUBJECTS.accounts.console.users.invite, ConsoleInviteRequest, ConsoleInviteIssued),
        list: rpc(SUBJECTS.accounts.console.users.list, ConsoleUsersRequest, ConsoleUserList),
        inviteInfo: rpc(SUBJECTS.accounts.console.users.inviteInfo, InviteTokenRequest, ConsoleInviteInfo),
        acceptInvite: rpc(SUBJECTS.accounts.console.users.acceptInvite, AcceptInviteRequest, ConsoleInviteAccepted),
      },
      models: rpc(SUBJECTS.accounts.console.models, ConsoleModelsRequest, ConsoleModelList),
      usage: {
        overview: rpc(SUBJECTS.accounts.console.usage.overview, ConsoleOverviewMessage, ConsoleOverview),
        summary: rpc(SUBJECTS.accounts.console.usage.summary, ConsoleUsageMessage, ConsoleUsageSummary),
        records: rpc(SUBJECTS.accounts.console.usage.records, ConsoleUsageRecordsMessage, ConsoleUsageRecordPage),
        record: rpc(SUBJECTS.accounts.console.usage.record, ConsoleUsageRecordMessage, ConsoleUsageRecordDetail),
      },
      projects: {
        list: rpc(SUBJECTS.accounts.console.projects.list, ConsoleProjectsMessage, ConsoleProjectList),
        ofTenant: rpc(SUBJECTS.accounts.console.projects.ofTenant, ConsoleTenantProjectsMessage, ConsoleProjectList),
        setBudget: rpc(SUBJECTS.accounts.console.projects.setBudget, ConsoleBudgetSetMessage, BudgetView),
        clearBudget: rpc(SUBJECTS.accounts.console.projects.clearBudget, ConsoleBudgetClearMessage, ConsoleBudgetCleared),
      },
      keyLimits: {
        show: rpc(SUBJECTS.accounts.console.keyLimits.show, ConsoleKeyLimitsMessage, ConsoleKeyLimits),
        set: rpc(SUBJECTS.accounts.console.keyLimits.set, ConsoleKeyLimitsSetMessage, ConsoleKeyLimits),
      },
      tenants: rpc(SUBJECTS.accounts.console.tenants, ConsoleTenantsRequest, ConsoleTenantPage),
      catalog: rpc(SUBJECTS.accounts.console.catalog, ConsoleCatalogRequest, ConsoleCatalogPage),
      charges: rpc(SUBJECTS.accounts.console.charges, ConsoleChargesMessage, ConsoleCharges),
      deadLetters: rpc(SUBJECTS.accounts.console.deadLetters, ConsoleDeadLettersRequest, ConsoleDeadLetterPage),
      deadLetter: rpc(SUBJECTS.accounts.console.deadLetter, ConsoleDeadLetterId, ConsoleDeadLetter),
      queues: rpc(SUBJECTS.accounts.console.queues, ConsoleQueuesRequest, ConsoleQueuePage),
      reconcileLast: rpc(SUBJECTS.accounts.console.reconcileLast, ConsoleReconcileRequest, ConsoleReconcileStatus),
      reconcileRun: rpc(SUBJECTS.accounts.console.reconcileRun, ConsoleReconcileRequest, ConsoleReconcileStatus),
      sessions: {
        signIn: rpc(SUBJECTS.accounts.console.sessions.signIn, SignInMessage, ConsoleSessionIssued),
        openOperator: rpc(SUBJECTS.accounts.console.sessions.openOperator, OpenOperatorSessionMessage, ConsoleSessionIssued),
        signOut: rpc(SUBJECTS.accounts.console.sessions.signOut, SignOutMessage, SessionRevokeReply),
        resolve: rpc(SUBJECTS.accounts.console.sessions.resolve, SessionResolveRequest, SessionResolveReply),
        list: rpc(SUBJECTS.accounts.console.sessions.list, SessionListRequest, ConsoleSessionList),
        revoke: rpc(SUBJECTS.accounts.console.sessions.revoke, SessionRevokeRequest, SessionRevokeReply),
      },
      oidc: {
        configure: rpc(SUBJECTS.accounts.console.oidc.configure, OidcConfigureRequest, OidcConfigView),
        show: rpc(SUBJECTS.accounts.console.oidc.show, OidcShowRequest, OidcConfigView),
        begin: rpc(SUBJECTS.accounts.console.oidc.begin, OidcBeginRequest, OidcBeginReply),
        complete: rpc(SUBJECTS.accounts.console.oidc.complete, OidcCompleteRequest, ConsoleSessionIssued),
      },
    },
  },
  media: { console: { tasks: rpc(SUBJECTS.media.console.tasks, ConsoleTasksMessage, ConsoleTaskServicePage) } },
  files: { console: { batches: rpc(SUBJECTS.files.console.batches, ConsoleTasksMessage, ConsoleTaskServicePage) } },
  chat: {
    cache: { purge: rpc(SUBJECTS.chat.cache.purge, CachePurgeMessage, CachePurgeReply.pick({ purged: true })) },
  },
  music: {
    console: { tasks: rpc(SUBJECTS.music.console.tasks, ConsoleTasksMessage, ConsoleTaskServicePage) },
    webhooks: {
      secretRotate: rpc(SUBJECTS.music.webhooks.secretRotate, WebhookSecretRotateMessage, WebhookSecretView),
      deliveries: rpc(SUBJECTS.music.webhooks.deliveries, WebhookDeliveriesRequest, WebhookDeliveryList),
      redeliver: rpc(SUBJECTS.music.webhooks.redeliver, WebhookRedeliverRequest, WebhookDeliveryView),
      console: {
        deliveries: rpc(SUBJECTS.music.webhooks.console.deliveries, ConsoleDeliveriesMessage, ConsoleDeliveryPage),
        redeliver: rpc(SUBJECTS.music.webhooks.console.redeliver, ConsoleRedeliverMessage, ConsoleDelivery),
      },
    },
  },
} as const;
