import {
  ApplyResult,
  BalanceShowRequest,
  BalanceTopupRequest,
  BalanceView,
  GatewayConfig,
  KeyCreateRequest,
  KeyCreated,
  KeyIdRequest,
  KeyListReply,
  KeyListRequest,
  KeyView,
  SUBJECTS,
  SubscriptionSetRequest,
  SubscriptionView,
  TenantCreateRequest,
  TenantGetRequest,
  TenantView,
  parseInput,
} from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { FastifyInstance } from 'fastify';

const TIMEOUT = { timeoutMs: 30_000 };

/**
 * The operator's admin routes: each validates its input with the contract schema, then forwards to
 * accounts over NATS. Not part of the public route table.
 */
export function registerAdminRoutes(fastify: FastifyInstance, bus: NatsBus): void {
  fastify.get('/admin/healthz', async () => ({ status: 'ok' }));

  fastify.post('/admin/config/apply', async (request) => {
    // Validated here for a precise error; sent as written because the parsed form holds BigInts, which JSON cannot carry.
    parseInput(GatewayConfig, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.config.apply, request.body ?? {}, ApplyResult, TIMEOUT);
  });

  fastify.post('/admin/tenants', async (request, reply) => {
    const body = parseInput(TenantCreateRequest, request.body ?? {}, 'body');
    return reply.code(201).send(await bus.request(SUBJECTS.accounts.tenants.create, body, TenantView, TIMEOUT));
  });

  fastify.get('/admin/tenants/:slug', async (request) => {
    const body = parseInput(TenantGetRequest, request.params, 'path');
    return bus.request(SUBJECTS.accounts.tenants.get, body, TenantView, TIMEOUT);
  });

  fastify.post('/admin/keys', async (request, reply) => {
    const body = parseInput(KeyCreateRequest, request.body ?? {}, 'body');
    return reply.code(201).send(await bus.request(SUBJECTS.accounts.keys.create, body, KeyCreated, TIMEOUT));
  });

  fastify.get('/admin/keys', async (request) => {
    const query = parseInput(KeyListRequest, request.query ?? {}, 'query');
    return { data: await bus.request(SUBJECTS.accounts.keys.list, query, KeyListReply, TIMEOUT) };
  });

  fastify.post('/admin/keys/:id/regenerate', async (request) => {
    const params = parseInput(KeyIdRequest, request.params, 'path');
    return bus.request(SUBJECTS.accounts.keys.regenerate, params, KeyCreated, TIMEOUT);
  });

  fastify.post('/admin/keys/:id/revoke', async (request) => {
    const params = parseInput(KeyIdRequest, request.params, 'path');
    return bus.request(SUBJECTS.accounts.keys.revoke, params, KeyView, TIMEOUT);
  });

  fastify.put('/admin/subscriptions', async (request) => {
    const body = parseInput(SubscriptionSetRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.subscriptions.set, body, SubscriptionView, TIMEOUT);
  });

  fastify.post('/admin/balance/topup', async (request) => {
    const { tenant, amount } = parseInput(BalanceTopupRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.balance.topup, { tenant, amountMicros: amount.toString() }, BalanceView, TIMEOUT);
  });

  fastify.get('/admin/balance', async (request) => {
    const query = parseInput(BalanceShowRequest, request.query ?? {}, 'query');
    return bus.request(SUBJECTS.accounts.balance.show, query, BalanceView, TIMEOUT);
  });
}
