import { ADMIN_ROUTES, type AdminRoute } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import Fastify from 'fastify';
import { registerAdminTable, type AdminHandlers } from './admin-table';

/** A bus no spec here reaches: registering a route sends nothing. */
const bus = {} as NatsBus;
const handlers: AdminHandlers = {
  health: async () => ({ status: 'ok' }),
  openApi: async () => ({ openapi: '3.1.0' }),
  purgeCache: async ({ tenant }) => ({ tenant, purged: 0 }),
  rotateWebhookSecret: async ({ tenant }) => ({ tenant, secret: 'whsec_x', createdAt: new Date(0).toISOString(), previousValidUntil: null }),
  inviteConsoleUser: async () => {
    throw new Error('not called');
  },
};

describe('the admin table', () => {
  it('registers every route of the table, each relayed or handled', async () => {
    const fastify = Fastify();
    expect(registerAdminTable(fastify, bus, handlers)).toBe(Object.keys(ADMIN_ROUTES).length);
    await fastify.ready();
    for (const route of Object.values(ADMIN_ROUTES)) {
      expect(fastify.hasRoute({ method: route.method, url: route.path })).toBe(true);
    }
    await fastify.close();
  });

  it('answers a handled route with its handler, its input parsed and refused naming the field', async () => {
    const fastify = Fastify();
    const errors: unknown[] = [];
    fastify.setErrorHandler((error, _request, reply) => {
      errors.push(error);
      return reply.code(400).send();
    });
    registerAdminTable(fastify, bus, handlers);
    const purged = await fastify.inject({ method: 'POST', url: '/admin/cache/purge', payload: { tenant: 'acme' } });
    expect([purged.statusCode, purged.json()]).toEqual([200, { tenant: 'acme', purged: 0 }]);
    const refused = await fastify.inject({ method: 'POST', url: '/admin/cache/purge', payload: { tenant: 5 } });
    expect(refused.statusCode).toBe(400);
    expect(errors).toEqual([expect.objectContaining({ code: 'invalid_request', param: 'tenant' })]);
    await fastify.close();
  });

  it('refuses to start with a route both relayed and handled, one neither, or a handler for no route', () => {
    const relayed: AdminRoute = ADMIN_ROUTES.getTenant;
    const handled: AdminRoute = ADMIN_ROUTES.health;
    const extra = { health: handlers.health, getTenant: handlers.health } as unknown as AdminHandlers;
    expect(() => registerAdminTable(Fastify(), bus, extra, { getTenant: relayed, health: handled })).toThrow(
      'admin route getTenant has both a relay and a handler',
    );
    const missing = { health: handlers.health } as AdminHandlers;
    expect(() => registerAdminTable(Fastify(), bus, missing, { health: handled, purgeCache: ADMIN_ROUTES.purgeCache })).toThrow(
      'admin route purgeCache has neither a relay nor a handler',
    );
    expect(() => registerAdminTable(Fastify(), bus, handlers, { health: handled })).toThrow(
      'admin handlers for routes the table does not hold: openApi, purgeCache, rotateWebhookSecret, inviteConsoleUser',
    );
  });
});
