import {
  SUBJECTS,
  TenantView,
  WebhookDeliveriesRequest,
  WebhookDeliveryList,
  WebhookDeliveryView,
  WebhookRedeliverRequest,
  WebhookSecretRotateRequest,
  WebhookSecretView,
  parseInput,
} from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { FastifyInstance } from 'fastify';

const TIMEOUT = { timeoutMs: 30_000 };

/** Admin routes of outbound webhooks: a tenant's signing secret (created or rotated, shown once), a task's deliveries, a redelivery. */
export function registerWebhookRoutes(fastify: FastifyInstance, bus: NatsBus): void {
  fastify.post('/admin/webhooks/secret/rotate', async (request) => {
    const { tenant, revokePrevious } = parseInput(WebhookSecretRotateRequest, request.body ?? {}, 'body');
    const found = await bus.request(SUBJECTS.accounts.tenants.get, { slug: tenant }, TenantView, TIMEOUT);
    return bus.request(SUBJECTS.music.webhooks.secretRotate, { tenant, tenantId: found.id, revokePrevious }, WebhookSecretView, TIMEOUT);
  });

  fastify.get('/admin/webhooks/deliveries', async (request) => {
    const query = parseInput(WebhookDeliveriesRequest, request.query ?? {}, 'query');
    return bus.request(SUBJECTS.music.webhooks.deliveries, query, WebhookDeliveryList, TIMEOUT);
  });

  fastify.post('/admin/webhooks/deliveries/:id/redeliver', async (request) => {
    const params = parseInput(WebhookRedeliverRequest, request.params, 'path');
    return bus.request(SUBJECTS.music.webhooks.redeliver, params, WebhookDeliveryView, TIMEOUT);
  });
}
