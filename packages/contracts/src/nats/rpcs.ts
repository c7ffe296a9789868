import { KeyCreated, KeyView } from '../accounts/key.schema';
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
  BillingConfigureMessage,
  BillingConfigureReply,
  UsageRequests,
  UsageRequestsRequest,
  UsageSummary,
  UsageSummaryRequest,
} from '../billing/billing.schema';
import { CachePurgeMessage, CachePurgeReply, CacheSetReply, CacheSetRequest } from '../cache/cache-admin.schema';
import { OidcConfigView, OidcConfigureRequest, OidcShowRequest } from '../console/console-oidc.schema';
import { ConsoleInviteIssued, ConsoleInviteRequest, ConsoleUserList, ConsoleUsersRequest } from '../console/console-people.schema';
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
    subscriptions: { set: rpc(SUBJECTS.accounts.subscriptions.set, SubscriptionSetRequest, SubscriptionView) },
    balance: {
      topup: rpc(SUBJECTS.accounts.balance.topup, BalanceTopupMessage, BalanceView),
      show: rpc(SUBJECTS.accounts.balance.show, BalanceShowRequest, BalanceView),
    },
    billing: {
      usageSummary: rpc(SUBJECTS.accounts.billing.usageSummary, UsageSummaryRequest, UsageSummary),
      usageRequests: rpc(SUBJECTS.accounts.billing.usageRequests, UsageRequestsRequest, UsageRequests),
      configure: rpc(SUBJECTS.accounts.billing.configure, BillingConfigureMessage, BillingConfigureReply),
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
      },
      sessions: {
        list: rpc(SUBJECTS.accounts.console.sessions.list, SessionListRequest, ConsoleSessionList),
        revoke: rpc(SUBJECTS.accounts.console.sessions.revoke, SessionRevokeRequest, SessionRevokeReply),
      },
      oidc: {
        configure: rpc(SUBJECTS.accounts.console.oidc.configure, OidcConfigureRequest, OidcConfigView),
        show: rpc(SUBJECTS.accounts.console.oidc.show, OidcShowRequest, OidcConfigView),
      },
    },
  },
  chat: {
    cache: { purge: rpc(SUBJECTS.chat.cache.purge, CachePurgeMessage, CachePurgeReply.pick({ purged: true })) },
  },
  music: {
    webhooks: {
      secretRotate: rpc(SUBJECTS.music.webhooks.secretRotate, WebhookSecretRotateMessage, WebhookSecretView),
      deliveries: rpc(SUBJECTS.music.webhooks.deliveries, WebhookDeliveriesRequest, WebhookDeliveryList),
      redeliver: rpc(SUBJECTS.music.webhooks.redeliver, WebhookRedeliverRequest, WebhookDeliveryView),
    },
  },
} as const;
