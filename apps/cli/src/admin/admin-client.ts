/**
 * The admin API client: one method per admin route, every answer parsed with its contract schema.
 * Used by gatewayctl, the stack launcher, the e2e support module and the benches.
 */
import {
  ADMIN_ROUTES,
  AdminErrorBody,
  fillRoutePath,
  type AdminCallInput,
  type AdminCallReply,
  type AdminRoute,
  type GatewayConfigInput,
} from '@gateway/contracts';
import { request } from 'undici';
import { AdminApiError, AdminUnreachableError } from './admin-errors';

export interface AdminClientOptions {
  url: string;
  token?: string;
  timeoutMs?: number;
}

/** What the route named `K` takes. */
type In<K extends keyof typeof ADMIN_ROUTES> = AdminCallInput<(typeof ADMIN_ROUTES)[K]>;

export class AdminClient {
  readonly url: string;

  constructor(private readonly options: AdminClientOptions) {
    this.url = options.url.replace(/\/+$/, '');
  }

  apply(config: GatewayConfigInput | Record<string, unknown>) {
    return this.send(ADMIN_ROUTES.apply, config as AdminCallInput<typeof ADMIN_ROUTES.apply>);
  }

  createTenant(body: In<'createTenant'>) {
    return this.send(ADMIN_ROUTES.createTenant, body);
  }

  getTenant(slug: string) {
    return this.send(ADMIN_ROUTES.getTenant, { slug });
  }

  createKey(body: In<'createKey'>) {
    return this.send(ADMIN_ROUTES.createKey, body);
  }

  createProject(body: In<'createProject'>) {
    return this.send(ADMIN_ROUTES.createProject, body);
  }

  grantProjectRole(body: In<'grantProjectRole'>) {
    return this.send(ADMIN_ROUTES.grantProjectRole, body);
  }

  listProjects(tenant: string) {
    return this.send(ADMIN_ROUTES.listProjects, { tenant }).then((list) => list.data);
  }

  setBudget(body: In<'setBudget'>) {
    return this.send(ADMIN_ROUTES.setBudget, body);
  }

  showBudget(target: In<'showBudget'>) {
    return this.send(ADMIN_ROUTES.showBudget, target).then((reply) => reply.budget);
  }

  clearBudget(target: In<'clearBudget'>) {
    return this.send(ADMIN_ROUTES.clearBudget, target);
  }

  listBudgets(tenant: string) {
    return this.send(ADMIN_ROUTES.listBudgets, { tenant }).then((list) => list.data);
  }

  setWebhookEndpoint(body: In<'setWebhookEndpoint'>) {
    return this.send(ADMIN_ROUTES.setWebhookEndpoint, body);
  }

  showWebhookEndpoint(tenant: string) {
    return this.send(ADMIN_ROUTES.showWebhookEndpoint, { tenant }).then((reply) => reply.endpoint);
  }

  setAlertSettings(body: In<'setAlertSettings'>) {
    return this.send(ADMIN_ROUTES.setAlertSettings, body);
  }

  showAlertSettings(tenant: string) {
    return this.send(ADMIN_ROUTES.showAlertSettings, { tenant });
  }

  listAlerts(query: In<'listAlerts'>) {
    return this.send(ADMIN_ROUTES.listAlerts, query).then((list) => list.data);
  }

  listKeys(tenant: string) {
    return this.send(ADMIN_ROUTES.listKeys, { tenant }).then((list) => list.data);
  }

  regenerateKey(id: string) {
    return this.send(ADMIN_ROUTES.regenerateKey, { id });
  }

  revokeKey(id: string) {
    return this.send(ADMIN_ROUTES.revokeKey, { id });
  }

  setSubscription(body: In<'setSubscription'>) {
    return this.send(ADMIN_ROUTES.setSubscription, body);
  }

  topup(body: In<'topup'>) {
    return this.send(ADMIN_ROUTES.topup, body);
  }

  balance(tenant: string) {
    return this.send(ADMIN_ROUTES.balance, { tenant });
  }

  usage(query: In<'usage'>) {
    return this.send(ADMIN_ROUTES.usage, query);
  }

  /** A tenant's usage rows by the client's x-request-id or the server's request id, newest first. */
  usageRequests(query: In<'usageRequests'>) {
    return this.send(ADMIN_ROUTES.usageRequests, query);
  }

  /** A page of a tenant's ledger, oldest first, with running balances. */
  ledger(query: In<'ledger'>) {
    return this.send(ADMIN_ROUTES.ledger, query);
  }

  /** Reconciles one tenant's books, or every tenant's. */
  reconcile(body: In<'reconcile'>) {
    return this.send(ADMIN_ROUTES.reconcile, body);
  }

  /** Records the usage and ledger writers could not write, oldest first. */
  deadLetters(query: In<'deadLetters'> = {}) {
    return this.send(ADMIN_ROUTES.deadLetters, query);
  }

  /** Puts dead letters back on the stream they came from and removes them. */
  replayDeadLetters(body: In<'replayDeadLetters'>) {
    return this.send(ADMIN_ROUTES.replayDeadLetters, body);
  }

  /** Rate limits, a custom subscription's quota and price overrides (decimal prices). */
  configureBilling(body: In<'configureBilling'>) {
    return this.send(ADMIN_ROUTES.configureBilling, body);
  }

  /** A tenant's response cache, or one key's narrowing of it. */
  setCache(body: In<'setCache'>) {
    return this.send(ADMIN_ROUTES.setCache, body);
  }

  /** Forgets every cached answer of a tenant. */
  purgeCache(tenant: string) {
    return this.send(ADMIN_ROUTES.purgeCache, { tenant });
  }

  /** Creates or rotates a tenant's webhook signing secret; the answer is the only time it is shown. */
  rotateWebhookSecret(tenant: string, revokePrevious = false) {
    return this.send(ADMIN_ROUTES.rotateWebhookSecret, { tenant, revokePrevious });
  }

  /** A task's webhook deliveries, each with every attempt made. */
  webhookDeliveries(task: string) {
    return this.send(ADMIN_ROUTES.webhookDeliveries, { task });
  }

  /** One more attempt at a delivered or dead-lettered webhook, under the same webhook-id. */
  redeliverWebhook(id: string) {
    return this.send(ADMIN_ROUTES.redeliverWebhook, { id });
  }

  /** Invites a person to a tenant's console; the answer's link (one-time, expiring) is the only time the token is shown. */
  inviteConsoleUser(body: In<'inviteConsoleUser'>) {
    return this.send(ADMIN_ROUTES.inviteConsoleUser, body);
  }

  consoleUsers(tenant: string) {
    return this.send(ADMIN_ROUTES.consoleUsers, { tenant });
  }

  consoleSessions(query: In<'consoleSessions'>) {
    return this.send(ADMIN_ROUTES.consoleSessions, query);
  }

  /** Ends console sessions at once on every edge: one by id, or all of a tenant or of one person in it. */
  revokeConsoleSessions(body: In<'revokeConsoleSessions'>) {
    return this.send(ADMIN_ROUTES.revokeConsoleSessions, body);
  }

  setConsoleOidc(body: In<'setConsoleOidc'>) {
    return this.send(ADMIN_ROUTES.setConsoleOidc, body);
  }

  consoleOidc(tenant: string) {
    return this.send(ADMIN_ROUTES.consoleOidc, { tenant });
  }

  /** One call of a route of the admin table: its path filled, its query written or its body sent, its answer parsed. */
  private async send<R extends AdminRoute>(route: R, input: AdminCallInput<R>): Promise<AdminCallReply<R>> {
    const method = route.method;
    const path = pathOf(route, input);
    const body = route.input === 'body' ? input : undefined;
    const headers: Record<string, string> = {};
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let statusCode: number;
    let text: string;
    try {
      const timeout = this.options.timeoutMs ?? route.timeoutMs ?? 30_000;
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
    const parsed = route.reply.safeParse(json);
    if (!parsed.success) {
      throw new AdminApiError(502, 'bad_response', `${method} ${path} answered an unexpected body: ${parsed.error.issues[0]?.message}`, null);
    }
    return parsed.data as AdminCallReply<R>;
  }
}

/** The route's path with its parameters filled from the input, and the rest of the input as its query when that is where it goes. */
function pathOf(route: AdminRoute, input: unknown): string {
  const { path, rest } = fillRoutePath(route.path, (input ?? {}) as Record<string, unknown>);
  if (route.input !== 'query') return path;
  const query = new URLSearchParams(
    Object.entries(rest).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])),
  ).toString();
  return query ? `${path}?${query}` : path;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
