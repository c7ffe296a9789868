import {
  BalanceView,
  BillingProfile,
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
  ConsoleSubscriptionRequest,
  DeadLetterReplayReply,
  DeadLetterReplayRequest,
  parseInput,
  SUBJECTS,
  SubscriptionView,
  TenantGetRequest,
  TenantView,
  UsageSummary,
  type ConsoleCatalogHealthPage,
  type ConsoleTenantDetail,
} from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import { gatherChannelHealth, NO_CALLS, summarizeChannels } from './channel-health.collector';
import type { ConsoleRoutes } from './console-routes';

const TIMEOUT = { timeoutMs: 15_000 };
/** Reconciling every tenant reads the whole ledger once. */
const RECONCILE_TIMEOUT = { timeoutMs: 120_000 };

/** The first instant of this month, UTC. */
function monthStart(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/**
 * The operator console's pages past the tenants list: a tenant's detail (spend this month, subscription),
 * the catalog with its channels' live health, dead letters, queue depths and reconciliation.
 */
export function registerOperatorPages(routes: ConsoleRoutes, bus: NatsBus): void {
  routes.signedIn('GET', '/console/api/tenants/:slug', 'console.tenant-detail', null, async (request): Promise<ConsoleTenantDetail> => {
    const { slug } = parseInput(TenantGetRequest, request.params, 'path');
    const since = monthStart();
    const tenant = await bus.request(SUBJECTS.accounts.tenants.get, { slug }, TenantView, TIMEOUT);
    const [balance, profile, byKind, byModel] = await Promise.all([
      bus.request(SUBJECTS.accounts.balance.show, { tenant: slug }, BalanceView, TIMEOUT),
      bus.request(SUBJECTS.accounts.billing.profile, { tenantId: tenant.id }, BillingProfile, TIMEOUT),
      bus.request(SUBJECTS.accounts.billing.usageSummary, { tenant: slug, since, by: 'kind' }, UsageSummary, TIMEOUT),
      bus.request(SUBJECTS.accounts.billing.usageSummary, { tenant: slug, since, by: 'model' }, UsageSummary, TIMEOUT),
    ]);
    return { tenant, balance, subscription: profile.subscription, since, byKind: byKind.rows, byModel: byModel.rows, plan: byKind.plan };
  });

  routes.signedIn('PUT', '/console/api/tenants/:slug/subscription', 'console.tenant-subscription', null, async (request) => {
    const { slug } = parseInput(TenantGetRequest, request.params, 'path');
    const { expires } = parseInput(ConsoleSubscriptionRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.subscriptions.set, { tenant: slug, expires }, SubscriptionView, TIMEOUT);
  });

  routes.signedIn('GET', '/console/api/catalog', 'console.catalog', null, async (request): Promise<ConsoleCatalogHealthPage> => {
    const query = parseInput(ConsoleCatalogRequest, request.query ?? {}, 'query');
    const [page, readings] = await Promise.all([bus.request(SUBJECTS.accounts.console.catalog, query, ConsoleCatalogPage, TIMEOUT), gatherChannelHealth(bus)]);
    const health = summarizeChannels(readings);
    return {
      ...page,
      data: page.data.map((model) => ({ ...model, channels: model.channels.map((channel) => ({ ...channel, health: health.get(channel.id) ?? NO_CALLS })) })),
      processes: readings.map(({ app, pid }) => ({ app, pid })).sort((a, b) => a.app.localeCompare(b.app) || a.pid - b.pid),
    };
  });

  routes.signedIn('GET', '/console/api/dead-letters', 'console.dead-letters', null, async (request) =>
    bus.request(SUBJECTS.accounts.console.deadLetters, parseInput(ConsoleDeadLettersRequest, request.query ?? {}, 'query'), ConsoleDeadLetterPage, TIMEOUT),
  );

  routes.signedIn('GET', '/console/api/dead-letters/:id', 'console.dead-letter', null, async (request) =>
    bus.request(SUBJECTS.accounts.console.deadLetter, parseInput(ConsoleDeadLetterId, request.params, 'path'), ConsoleDeadLetter, TIMEOUT),
  );

  routes.signedIn('POST', '/console/api/dead-letters/replay', 'console.dead-letters-replay', null, async (request) => {
    const body = parseInput(DeadLetterReplayRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.deadLetters.replay, body, DeadLetterReplayReply, TIMEOUT);
  });

  routes.signedIn('GET', '/console/api/queues', 'console.queues', null, async (request) =>
    bus.request(SUBJECTS.accounts.console.queues, parseInput(ConsoleQueuesRequest, request.query ?? {}, 'query'), ConsoleQueuePage, TIMEOUT),
  );

  routes.signedIn('GET', '/console/api/reconciliation', 'console.reconciliation', null, async (request) =>
    bus.request(SUBJECTS.accounts.console.reconcileLast, parseInput(ConsoleReconcileRequest, request.query ?? {}, 'query'), ConsoleReconcileStatus, TIMEOUT),
  );

  routes.signedIn('POST', '/console/api/reconciliation', 'console.reconciliation-run', null, async (request) =>
    bus.request(
      SUBJECTS.accounts.console.reconcileRun,
      parseInput(ConsoleReconcileRequest, request.query ?? {}, 'query'),
      ConsoleReconcileStatus,
      RECONCILE_TIMEOUT,
    ),
  );
}
