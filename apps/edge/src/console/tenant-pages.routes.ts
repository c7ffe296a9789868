import {
  BalanceView,
  ConsoleKeyCreateRequest,
  ConsoleModelList,
  KeyCreated,
  KeyIdRequest,
  KeyListReply,
  KeyView,
  parseInput,
  SUBJECTS,
  WebhookSecretView,
} from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { SignedIn } from './console-guard';
import type { ConsoleRoutes } from './console-routes';

const TIMEOUT = { timeoutMs: 15_000 };

/** A tenant session always names its tenant. */
function tenantOf({ session }: SignedIn): { slug: string; id: string } {
  return { slug: session.tenantSlug!, id: session.tenantId! };
}

/** The tenant console's pages: keys (masked list, create and regenerate shown once, revoke), the webhook secret, models with prices, the balance. */
export function registerTenantPages(routes: ConsoleRoutes, bus: NatsBus): void {
  routes.signedIn('GET', '/console/api/keys', 'console.keys', 'read', async (_request, _reply, call) => ({
    data: await bus.request(SUBJECTS.accounts.keys.list, { tenant: tenantOf(call).slug }, KeyListReply, TIMEOUT),
  }));

  routes.signedIn('POST', '/console/api/keys', 'console.key-create', 'keys', async (request, reply, call) => {
    const { name } = parseInput(ConsoleKeyCreateRequest, request.body ?? {}, 'body');
    const created = await bus.request(SUBJECTS.accounts.keys.create, { tenant: tenantOf(call).slug, name }, KeyCreated, TIMEOUT);
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });

  routes.signedIn('POST', '/console/api/keys/:id/regenerate', 'console.key-regenerate', 'keys', async (request, _reply, call) => {
    const { id } = parseInput(KeyIdRequest, request.params, 'path');
    return bus.request(SUBJECTS.accounts.keys.regenerate, { id, tenant: tenantOf(call).slug }, KeyCreated, TIMEOUT);
  });

  routes.signedIn('POST', '/console/api/keys/:id/revoke', 'console.key-revoke', 'keys', async (request, _reply, call) => {
    const { id } = parseInput(KeyIdRequest, request.params, 'path');
    return bus.request(SUBJECTS.accounts.keys.revoke, { id, tenant: tenantOf(call).slug }, KeyView, TIMEOUT);
  });

  routes.signedIn('POST', '/console/api/webhooks/secret/rotate', 'console.webhook-secret', 'webhooks', async (_request, _reply, call) => {
    const tenant = tenantOf(call);
    return bus.request(SUBJECTS.music.webhooks.secretRotate, { tenant: tenant.slug, tenantId: tenant.id }, WebhookSecretView, TIMEOUT);
  });

  routes.signedIn('GET', '/console/api/models', 'console.models', 'read', async (_request, _reply, call) =>
    bus.request(SUBJECTS.accounts.console.models, { tenantId: tenantOf(call).id }, ConsoleModelList, TIMEOUT),
  );

  routes.signedIn('GET', '/console/api/balance', 'console.balance', 'read', async (_request, _reply, call) =>
    bus.request(SUBJECTS.accounts.balance.show, { tenant: tenantOf(call).slug }, BalanceView, TIMEOUT),
  );
}
