import { CachePurgeReply, CachePurgeRequest, CacheSetReply, CacheSetRequest, parseInput, SUBJECTS, TenantView } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { FastifyInstance } from 'fastify';

const TIMEOUT = { timeoutMs: 30_000 };

/** Admin routes of the response cache: a tenant's (or a key's) settings, kept by accounts; a tenant's entries purged by chat. */
export function registerCacheRoutes(fastify: FastifyInstance, bus: NatsBus): void {
  fastify.put('/admin/cache', async (request) => {
    const body = parseInput(CacheSetRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.cache.set, body, CacheSetReply, TIMEOUT);
  });

  fastify.post('/admin/cache/purge', async (request) => {
    const { tenant } = parseInput(CachePurgeRequest, request.body ?? {}, 'body');
    const found = await bus.request(SUBJECTS.accounts.tenants.get, { slug: tenant }, TenantView, TIMEOUT);
    const { purged } = await bus.request(SUBJECTS.chat.cache.purge, { tenantId: found.id }, CachePurgeReply.pick({ purged: true }), TIMEOUT);
    return { tenant: found.slug, purged };
  });
}
