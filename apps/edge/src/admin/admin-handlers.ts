import { buildAdminOpenApiDocument, RPCS } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { AdminHandlers } from './admin-table';

const TIMEOUT = { timeoutMs: 30_000 };

/** The set-password page's link: the token rides in the fragment, which browsers never send to a server. */
export function inviteLink(consoleOrigin: string, token: string): string {
  return `${consoleOrigin.replace(/\/+$/, '')}/console/set-password#token=${token}`;
}

/**
 * The admin routes the edge answers itself: those that ask two services in turn, or add what only the
 * edge knows. `consoleOrigin`: where tenants reach the public console.
 */
export function adminHandlers(bus: NatsBus, consoleOrigin: () => string): AdminHandlers {
  const tenantOf = (slug: string) => bus.call(RPCS.accounts.tenants.get, { slug }, TIMEOUT);
  const openApi = buildAdminOpenApiDocument();
  return {
    health: async () => ({ status: 'ok' }),
    openApi: async () => openApi,
    purgeCache: async ({ tenant }) => {
      const found = await tenantOf(tenant);
      const { purged } = await bus.call(RPCS.chat.cache.purge, { tenantId: found.id }, TIMEOUT);
      return { tenant: found.slug, purged };
    },
    rotateWebhookSecret: async ({ tenant, revokePrevious }) => {
      const found = await tenantOf(tenant);
      return bus.call(RPCS.music.webhooks.secretRotate, { tenant, tenantId: found.id, revokePrevious }, TIMEOUT);
    },
    inviteConsoleUser: async (invite) => {
      const issued = await bus.call(RPCS.accounts.console.users.invite, invite, TIMEOUT);
      return { ...issued, link: inviteLink(consoleOrigin(), issued.token) };
    },
  };
}
