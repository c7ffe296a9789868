import { RPCS, type ConsoleCatalogHealthPage, type ConsoleTenantDetail } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import { gatherChannelHealth, NO_CALLS, summarizeChannels } from './channel-health.collector';
import type { ConsoleRoutes } from './console-routes';

const TIMEOUT = { timeoutMs: 15_000 };

/** The first instant of this month, UTC. */
function monthStart(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/**
 * The operator console's pages that join several answers: a tenant's detail (spend this month,
 * subscription) and the catalog with its channels' live health (the other pages are relayed).
 */
export function registerOperatorPages(routes: ConsoleRoutes, bus: NatsBus): void {
  routes.handle('tenantDetail', async ({ slug }): Promise<ConsoleTenantDetail> => {
    const since = monthStart();
    const tenant = await bus.call(RPCS.accounts.tenants.get, { slug }, TIMEOUT);
    const [balance, profile, byKind, byModel] = await Promise.all([
      bus.call(RPCS.accounts.balance.show, { tenant: slug }, TIMEOUT),
      bus.call(RPCS.accounts.billing.profile, { tenantId: tenant.id }, TIMEOUT),
      bus.call(RPCS.accounts.billing.usageSummary, { tenant: slug, since, by: 'kind' }, TIMEOUT),
      bus.call(RPCS.accounts.billing.usageSummary, { tenant: slug, since, by: 'model' }, TIMEOUT),
    ]);
    return { tenant, balance, subscription: profile.subscription, since, byKind: byKind.rows, byModel: byModel.rows, plan: byKind.plan };
  });

  routes.handle('catalog', async (query): Promise<ConsoleCatalogHealthPage> => {
    const [page, readings] = await Promise.all([bus.call(RPCS.accounts.console.catalog, query, TIMEOUT), gatherChannelHealth(bus)]);
    const health = summarizeChannels(readings);
    return {
      ...page,
      data: page.data.map((model) => ({ ...model, channels: model.channels.map((channel) => ({ ...channel, health: health.get(channel.id) ?? NO_CALLS })) })),
      processes: readings.map(({ app, pid }) => ({ app, pid })).sort((a, b) => a.app.localeCompare(b.app) || a.pid - b.pid),
    };
  });
}
