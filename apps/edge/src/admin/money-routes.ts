import { LedgerPage, LedgerRequest, parseInput, ReconcileReport, ReconcileRequest, SUBJECTS } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { FastifyInstance } from 'fastify';

/** Reconciling every tenant reads the whole ledger once: it may take longer than a page. */
const TIMEOUT = { timeoutMs: 120_000 };

/** Admin routes of the books: a tenant's ledger with running balances, and reconciliation of one tenant or all. */
export function registerMoneyRoutes(fastify: FastifyInstance, bus: NatsBus): void {
  fastify.get('/admin/ledger', async (request) => {
    const query = parseInput(LedgerRequest, request.query ?? {}, 'query');
    return bus.request(SUBJECTS.accounts.money.ledger, query, LedgerPage, TIMEOUT);
  });

  fastify.post('/admin/reconcile', async (request) => {
    const body = parseInput(ReconcileRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.money.reconcile, body, ReconcileReport, TIMEOUT);
  });
}
