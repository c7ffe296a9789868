/**
 * The admin API client: one method per admin route, every answer parsed with its contract schema.
 * Used by gatewayctl, the stack launcher, the e2e support module and the benches.
 */
import {
  CachePurgeReply,
  CacheSetReply,
  type CacheSetRequest,
  ApplyResult,
  ConsoleInviteView,
  ConsoleSessionList,
  ConsoleUserList,
  OidcConfigView,
  SessionRevokeReply,
  BalanceView,
  BillingConfigureReply,
  DeadLetterList,
  DeadLetterReplayReply,
  LedgerPage,
  ReconcileReport,
  UsageRequests,
  UsageSummary,
  WebhookDeliveryList,
  WebhookDeliveryView,
  WebhookSecretView,
  KeyCreated,
  KeyView,
  SubscriptionView,
  TenantView,
  type ConsoleInviteRequest,
  type GatewayConfigInput,
  type OidcConfigureRequest,
  type TenantCreateRequest,
} from '@gateway/contracts';
import { request } from 'undici';
import { z } from 'zod';
import { AdminApiError, AdminUnreachableError } from './admin-errors';

const AdminErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), param: z.string().nullish() }),
});
const KeyList = z.object({ data: z.array(KeyView) });

type Method = 'GET' | 'POST' | 'PUT';

export interface AdminClientOptions {
  url: string;
  token?: string;
  timeoutMs?: number;
}

export class AdminClient {
  readonly url: string;

  constructor(private readonly options: AdminClientOptions) {
    this.url = options.url.replace(/\/+$/, '');
  }

  apply(config: GatewayConfigInput | Record<string, unknown>) {
    return this.call('POST', '/admin/config/apply', ApplyResult, config);
  }

  createTenant(body: TenantCreateRequest) {
    return this.call('POST', '/admin/tenants', TenantView, body);
  }

  getTenant(slug: string) {
    return this.call('GET', `/admin/tenants/${encodeURIComponent(slug)}`, TenantView);
  }

  createKey(body: { tenant: string; name?: string }) {
    return this.call('POST', '/admin/keys', KeyCreated, body);
  }

  listKeys(tenant: string) {
    return this.call('GET', `/admin/keys?tenant=${encodeURIComponent(tenant)}`, KeyList).then((list) => list.data);
  }

  regenerateKey(id: string) {
    return this.call('POST', `/admin/keys/${encodeURIComponent(id)}/regenerate`, KeyCreated);
  }

  revokeKey(id: string) {
    return this.call('POST', `/admin/keys/${encodeURIComponent(id)}/revoke`, KeyView);
  }

  setSubscription(body: { tenant: string; expires: string }) {
    return this.call('PUT', '/admin/subscriptions', SubscriptionView, body);
  }

  topup(body: { tenant: string; amount: string }) {
    return this.call('POST', '/admin/balance/topup', BalanceView, body);
  }

  balance(tenant: string) {
    return this.call('GET', `/admin/balance?tenant=${encodeURIComponent(tenant)}`, BalanceView);
  }

  usage(query: { tenant: string; since?: string; until?: string; by?: string }) {
    const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return this.call('GET', `/admin/usage?${params.toString()}`, UsageSummary);
  }

  /** A tenant's usage rows by the client's x-request-id or the server's request id, newest first. */
  usageRequests(query: { tenant: string; clientRequestId?: string; requestId?: string; subjectId?: string; limit?: number }) {
    const params = new URLSearchParams(
      Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])),
    );
    return this.call('GET', `/admin/usage/requests?${params.toString()}`, UsageRequests);
  }

  /** A page of a tenant's ledger, oldest first, with running balances. */
  ledger(query: { tenant: string; since?: string; kind?: string; limit?: number; cursor?: string }) {
    const params = new URLSearchParams(
      Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])),
    );
    return this.call('GET', `/admin/ledger?${params.toString()}`, LedgerPage);
  }

  /** Reconciles one tenant's books, or every tenant's. */
  reconcile(body: { tenant: string } | { all: true }) {
    return this.call('POST', '/admin/reconcile', ReconcileReport, body);
  }

  /** Records the usage and ledger writers could not write, oldest first. */
  deadLetters(query: { consumer?: string; limit?: number } = {}) {
    const params = new URLSearchParams(
      Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])),
    );
    return this.call('GET', `/admin/usage/dead-letters?${params.toString()}`, DeadLetterList);
  }

  /** Puts dead letters back on the stream they came from and removes them. */
  replayDeadLetters(body: { ids: string[] } | { all: true }) {
    return this.call('POST', '/admin/usage/dead-letters/replay', DeadLetterReplayReply, body);
  }

  /** Rate limits, a custom subscription's quota and price overrides (decimal prices). */
  configureBilling(body: Record<string, unknown>) {
    return this.call('PUT', '/admin/billing', BillingConfigureReply, body);
  }

  /** A tenant's response cache, or one key's narrowing of it. */
  setCache(body: CacheSetRequest) {
    return this.call('PUT', '/admin/cache', CacheSetReply, body);
  }

  /** Forgets every cached answer of a tenant. */
  purgeCache(tenant: string) {
    return this.call('POST', '/admin/cache/purge', CachePurgeReply, { tenant });
  }

  /** Creates or rotates a tenant's webhook signing secret; the answer is the only time it is shown. */
  rotateWebhookSecret(tenant: string, revokePrevious = false) {
    return this.call('POST', '/admin/webhooks/secret/rotate', WebhookSecretView, { tenant, revokePrevious });
  }

  /** A task's webhook deliveries, each with every attempt made. */
  webhookDeliveries(task: string) {
    return this.call('GET', `/admin/webhooks/deliveries?task=${encodeURIComponent(task)}`, WebhookDeliveryList);
  }

  /** One more attempt at a delivered or dead-lettered webhook, under the same webhook-id. */
  redeliverWebhook(id: string) {
    return this.call('POST', `/admin/webhooks/deliveries/${encodeURIComponent(id)}/redeliver`, WebhookDeliveryView);
  }

  /** Invites a person to a tenant's console; the answer's link (one-time, expiring) is the only time the token is shown. */
  inviteConsoleUser(body: ConsoleInviteRequest) {
    return this.call('POST', '/admin/console/invites', ConsoleInviteView, body);
  }

  consoleUsers(tenant: string) {
    return this.call('GET', `/admin/console/users?tenant=${encodeURIComponent(tenant)}`, ConsoleUserList);
  }

  consoleSessions(query: { tenant?: string; email?: string }) {
    return this.call('GET', `/admin/console/sessions?${queryOf(query)}`, ConsoleSessionList);
  }

  /** Ends console sessions at once on every edge: one by id, or all of a tenant or of one person in it. */
  revokeConsoleSessions(body: { id: string } | { tenant: string; email?: string }) {
    return this.call('POST', '/admin/console/sessions/revoke', SessionRevokeReply, body);
  }

  setConsoleOidc(body: OidcConfigureRequest) {
    return this.call('PUT', '/admin/console/oidc', OidcConfigView, body);
  }

  consoleOidc(tenant: string) {
    return this.call('GET', `/admin/console/oidc?tenant=${encodeURIComponent(tenant)}`, OidcConfigView);
  }

  private async call<S extends z.ZodType>(method: Method, path: string, schema: S, body?: unknown): Promise<z.infer<S>> {
    const headers: Record<string, string> = {};
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let statusCode: number;
    let text: string;
    try {
      const timeout = this.options.timeoutMs ?? 30_000;
      const response = await request(this.url + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      statusCode = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      const cause = (error as { code?: string }).code ?? (error as Error).message;
      throw new AdminUnreachableError(this.url, cause);
    }
    const json = parseJson(text);
    if (statusCode >= 400) {
      const parsed = AdminErrorBody.safeParse(json);
      if (parsed.success) throw new AdminApiError(statusCode, parsed.data.error.code, parsed.data.error.message, parsed.data.error.param ?? null);
      throw new AdminApiError(statusCode, 'http_error', `${method} ${path} answered ${statusCode}: ${text.slice(0, 200)}`, null);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new AdminApiError(502, 'bad_response', `${method} ${path} answered an unexpected body: ${parsed.error.issues[0]?.message}`, null);
    }
    return parsed.data;
  }
}

function queryOf(query: Record<string, string | number | undefined>): string {
  return new URLSearchParams(
    Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])),
  ).toString();
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
