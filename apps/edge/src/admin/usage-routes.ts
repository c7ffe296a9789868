import {
  BillingConfigureReply,
  BillingConfigureRequest,
  DeadLetterList,
  DeadLetterListRequest,
  DeadLetterReplayReply,
  DeadLetterReplayRequest,
  parseInput,
  SUBJECTS,
  UsageRequests,
  UsageRequestsRequest,
  UsageSummary,
  UsageSummaryRequest,
  type BillingConfigureMessage,
} from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { FastifyInstance } from 'fastify';

const TIMEOUT = { timeoutMs: 30_000 };

/** Decimal prices become micro-unit strings here, once: JSON cannot carry the parsed BigInts. */
function toMessage(request: ReturnType<typeof BillingConfigureRequest.parse>): BillingConfigureMessage {
  const micros = (value: bigint | undefined) => (value === undefined ? undefined : value.toString());
  return {
    tenant: request.tenant,
    limits: request.limits,
    quota: request.quota && { credit: micros(request.quota.credit), requests: request.quota.requests, periodSeconds: request.quota.periodSeconds },
    priceOverrides:
      request.priceOverrides &&
      Object.fromEntries(
        Object.entries(request.priceOverrides).map(([model, prices]) => [
          model,
          Object.fromEntries(Object.entries(prices).flatMap(([field, value]) => (value === undefined ? [] : [[field, value.toString()]]))),
        ]),
      ),
  };
}

/**
 * Admin routes of billing: usage summaries and rows found by request id, a tenant's billing settings (limits, custom quota and prices),
 * and the dead letters of the usage and ledger writers (listed, and replayed once their cause is fixed).
 */
export function registerUsageRoutes(fastify: FastifyInstance, bus: NatsBus): void {
  fastify.get('/admin/usage', async (request) => {
    const query = parseInput(UsageSummaryRequest, request.query ?? {}, 'query');
    return bus.request(SUBJECTS.accounts.billing.usageSummary, query, UsageSummary, TIMEOUT);
  });

  fastify.get('/admin/usage/requests', async (request) => {
    const query = parseInput(UsageRequestsRequest, request.query ?? {}, 'query');
    return bus.request(SUBJECTS.accounts.billing.usageRequests, query, UsageRequests, TIMEOUT);
  });

  fastify.put('/admin/billing', async (request) => {
    const body = parseInput(BillingConfigureRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.billing.configure, toMessage(body), BillingConfigureReply, TIMEOUT);
  });

  fastify.get('/admin/usage/dead-letters', async (request) => {
    const query = parseInput(DeadLetterListRequest, request.query ?? {}, 'query');
    return bus.request(SUBJECTS.accounts.deadLetters.list, query, DeadLetterList, TIMEOUT);
  });

  fastify.post('/admin/usage/dead-letters/replay', async (request) => {
    const body = parseInput(DeadLetterReplayRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.deadLetters.replay, body, DeadLetterReplayReply, TIMEOUT);
  });
}
