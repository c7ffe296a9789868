/**
 * Every console and admin API route with one valid request each (query, path parameters, body): the
 * starting points the console fuzz mutates. Seeds name a tenant made for the fuzz and ids that do not
 * exist, so no case can end the fuzz's own sessions or touch another spec's data.
 */
import type { RouteSeed } from './fuzz-seeds';

/** Who a route answers: a tenant's session (public listener), an operator's session or the admin token (admin listener). */
export type ConsoleCaller = 'tenant' | 'operator' | 'admin' | 'open-tenant' | 'open-operator';

export interface ConsoleFuzzRoute {
  caller: ConsoleCaller;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** With `:name` path parameters. */
  path: string;
  seed: RouteSeed;
  /** The route answers a browser navigation: a redirect is its answer. */
  navigation?: boolean;
}

const MISSING_UUID = '00000000-0000-4000-8000-000000000000';
const TIME = '2026-11-01T00:00:00Z';
const none = (): RouteSeed => ({ bodies: [], query: {}, params: {} });
const seed = (partial: Partial<RouteSeed>): RouteSeed => ({ ...none(), ...partial });

/**
 * Routes of the tables the fuzz leaves alone, with why: a case that passed would change what every other
 * spec running beside it relies on.
 */
export const UNFUZZED: Record<string, string> = {
  'admin POST /admin/config/apply': 'a config that parses replaces the catalog and channels of the whole gateway',
};

/** `other`: a tenant made for the fuzz that the operator routes may change; never the tenant whose session is fuzzing. */
export function consoleFuzzRoutes(other: string): ConsoleFuzzRoute[] {
  const slug = { slug: [other, 'missing-tenant'] };
  return [
    // the tenant console (public listener)
    { caller: 'tenant', method: 'GET', path: '/console/api/session', seed: none() },
    {
      caller: 'open-tenant',
      method: 'POST',
      path: '/console/api/session',
      seed: seed({ bodies: [{ email: 'nobody@example.com', password: 'not the password at all' }] }),
    },
    { caller: 'open-tenant', method: 'POST', path: '/console/api/invites/lookup', seed: seed({ bodies: [{ token: 'a'.repeat(43) }] }) },
    {
      caller: 'open-tenant',
      method: 'POST',
      path: '/console/api/invites/accept',
      seed: seed({ bodies: [{ token: 'a'.repeat(43), password: 'a quiet river at dusk' }] }),
    },
    { caller: 'open-tenant', method: 'GET', path: '/console/api/oidc/start', seed: seed({ query: { tenant: other } }), navigation: true },
    { caller: 'open-tenant', method: 'GET', path: '/console/api/oidc/callback', seed: seed({ query: { state: 's'.repeat(32), code: 'c' } }), navigation: true },
    { caller: 'open-tenant', method: 'DELETE', path: '/console/api/session', seed: none() },
    { caller: 'tenant', method: 'GET', path: '/console/api/overview', seed: none() },
    { caller: 'tenant', method: 'GET', path: '/console/api/usage/summary', seed: seed({ query: { since: TIME, until: '2026-12-01T00:00:00Z', by: 'model' } }) },
    {
      caller: 'tenant',
      method: 'GET',
      path: '/console/api/usage/records',
      seed: seed({ query: { since: TIME, model: 'sandbox-gpt', kind: 'chat', limit: '10' } }),
    },
    { caller: 'tenant', method: 'GET', path: '/console/api/usage/records/:requestId', seed: seed({ params: { requestId: ['req-missing'] } }) },
    { caller: 'tenant', method: 'GET', path: '/console/api/usage/export.csv', seed: seed({ query: { of: 'records', since: TIME, model: 'sandbox-gpt' } }) },
    { caller: 'tenant', method: 'GET', path: '/console/api/usage/export.csv', seed: seed({ query: { of: 'summary', since: TIME, by: 'day' } }) },
    { caller: 'tenant', method: 'GET', path: '/console/api/tasks', seed: seed({ query: { kind: 'media', status: 'failed', limit: '5' } }) },
    { caller: 'tenant', method: 'GET', path: '/console/api/webhooks/deliveries', seed: seed({ query: { status: 'failed', limit: '5' } }) },
    { caller: 'tenant', method: 'POST', path: '/console/api/webhooks/deliveries/:id/redeliver', seed: seed({ params: { id: ['msg_missing'] } }) },
    // Rotates the fuzzing tenant's own webhook secret: nothing else reads it.
    { caller: 'tenant', method: 'POST', path: '/console/api/webhooks/secret/rotate', seed: none() },
    { caller: 'tenant', method: 'GET', path: '/console/api/alerts', seed: seed({ query: { limit: '5' } }) },
    { caller: 'tenant', method: 'GET', path: '/console/api/alerts/endpoint', seed: none() },
    {
      caller: 'tenant',
      method: 'PUT',
      path: '/console/api/alerts/endpoint',
      seed: seed({ bodies: [{ url: 'https://hooks.example.com/fuzz', events: ['budget.*'] }] }),
    },
    { caller: 'tenant', method: 'GET', path: '/console/api/keys/:id/limits', seed: seed({ params: { id: [MISSING_UUID] } }) },
    {
      caller: 'tenant',
      method: 'PUT',
      path: '/console/api/keys/:id/limits',
      seed: seed({ params: { id: [MISSING_UUID] }, bodies: [{ limits: { rpm: 10 } }, { limits: null }] }),
    },
    { caller: 'tenant', method: 'GET', path: '/console/api/keys', seed: none() },
    { caller: 'tenant', method: 'POST', path: '/console/api/keys', seed: seed({ bodies: [{ name: 'fuzz' }] }) },
    { caller: 'tenant', method: 'POST', path: '/console/api/keys/:id/regenerate', seed: seed({ params: { id: [MISSING_UUID] } }) },
    { caller: 'tenant', method: 'POST', path: '/console/api/keys/:id/revoke', seed: seed({ params: { id: [MISSING_UUID] } }) },
    { caller: 'tenant', method: 'GET', path: '/console/api/models', seed: none() },
    { caller: 'tenant', method: 'GET', path: '/console/api/balance', seed: none() },
    { caller: 'tenant', method: 'GET', path: '/console/api/projects', seed: none() },
    {
      caller: 'tenant',
      method: 'PUT',
      path: '/console/api/projects/:project/budget',
      seed: seed({ params: { project: ['fuzz-missing'] }, bodies: [{ amount: '5.00', period: 'day', mode: 'soft', alertAt: [50] }] }),
    },
    { caller: 'tenant', method: 'DELETE', path: '/console/api/projects/:project/budget', seed: seed({ params: { project: ['fuzz-missing'] } }) },
    {
      caller: 'tenant',
      method: 'PUT',
      path: '/console/api/keys/:id/budget',
      seed: seed({ params: { id: [MISSING_UUID] }, bodies: [{ amount: '1.00', period: 'month' }] }),
    },
    { caller: 'tenant', method: 'DELETE', path: '/console/api/keys/:id/budget', seed: seed({ params: { id: [MISSING_UUID] } }) },
    {
      caller: 'tenant',
      method: 'PUT',
      path: '/console/api/projects/:project/members',
      seed: seed({
        params: { project: ['fuzz-missing'] },
        bodies: [
          { email: 'nobody@example.com', role: 'viewer' },
          { email: 'nobody@example.com', role: null },
        ],
      }),
    },
    { caller: 'tenant', method: 'GET', path: '/console/api/no-such-route', seed: none() },
    // the operator console (admin listener)
    { caller: 'operator', method: 'GET', path: '/console/api/session', seed: none() },
    { caller: 'open-operator', method: 'POST', path: '/console/api/session', seed: seed({ bodies: [{ token: 'not the admin token' }] }) },
    { caller: 'operator', method: 'GET', path: '/console/api/tenants', seed: seed({ query: { offset: '0', limit: '5', search: 'fuzz' } }) },
    { caller: 'operator', method: 'POST', path: '/console/api/tenants', seed: seed({ bodies: [{ slug: 'fuzz-made', billing: 'payg' }] }) },
    { caller: 'operator', method: 'POST', path: '/console/api/tenants/:slug/topup', seed: seed({ params: slug, bodies: [{ amount: '1.00' }] }) },
    { caller: 'operator', method: 'GET', path: '/console/api/tenants/:slug', seed: seed({ params: slug }) },
    { caller: 'operator', method: 'GET', path: '/console/api/tenants/:slug/projects', seed: seed({ params: slug }) },
    {
      caller: 'operator',
      method: 'PUT',
      path: '/console/api/tenants/:slug/subscription',
      seed: seed({ params: slug, bodies: [{ expires: '2030-01-01T00:00:00Z' }] }),
    },
    { caller: 'operator', method: 'GET', path: '/console/api/catalog', seed: seed({ query: { offset: '0', limit: '5', search: 'sandbox' } }) },
    { caller: 'operator', method: 'GET', path: '/console/api/dead-letters', seed: seed({ query: { consumer: 'usage', after: '1', limit: '5' } }) },
    { caller: 'operator', method: 'GET', path: '/console/api/dead-letters/:id', seed: seed({ params: { id: ['999999999'] } }) },
    { caller: 'operator', method: 'POST', path: '/console/api/dead-letters/replay', seed: seed({ bodies: [{ ids: ['999999999'] }] }) },
    { caller: 'operator', method: 'GET', path: '/console/api/queues', seed: seed({ query: { offset: '0', limit: '5' } }) },
    { caller: 'operator', method: 'GET', path: '/console/api/reconciliation', seed: seed({ query: { offset: '0', limit: '5' } }) },
    { caller: 'operator', method: 'POST', path: '/console/api/reconciliation', seed: seed({ query: { offset: '0', limit: '5' } }) },
    { caller: 'open-operator', method: 'DELETE', path: '/console/api/session', seed: none() },
    { caller: 'operator', method: 'GET', path: '/console/api/no-such-route', seed: none() },
    // the admin API (admin listener, bearer token)
    { caller: 'admin', method: 'GET', path: '/admin/openapi.json', seed: none() },
    { caller: 'admin', method: 'GET', path: '/admin/healthz', seed: none() },
    { caller: 'admin', method: 'POST', path: '/admin/tenants', seed: seed({ bodies: [{ slug: 'fuzz-admin-made', billing: 'payg' }] }) },
    { caller: 'admin', method: 'GET', path: '/admin/tenants/:slug', seed: seed({ params: slug }) },
    { caller: 'admin', method: 'POST', path: '/admin/keys', seed: seed({ bodies: [{ tenant: other, name: 'fuzz' }] }) },
    { caller: 'admin', method: 'GET', path: '/admin/keys', seed: seed({ query: { tenant: other } }) },
    { caller: 'admin', method: 'POST', path: '/admin/projects', seed: seed({ bodies: [{ tenant: other, name: 'fuzz-project' }] }) },
    { caller: 'admin', method: 'GET', path: '/admin/projects', seed: seed({ query: { tenant: other } }) },
    {
      caller: 'admin',
      method: 'PUT',
      path: '/admin/budget',
      seed: seed({
        bodies: [
          { tenant: other, project: 'default', amount: '5.00', period: 'month', mode: 'soft' },
          { key: MISSING_UUID, amount: '1', period: 'day' },
        ],
      }),
    },
    { caller: 'admin', method: 'GET', path: '/admin/budget', seed: seed({ query: { tenant: other, project: 'default' } }) },
    { caller: 'admin', method: 'POST', path: '/admin/budget/clear', seed: seed({ bodies: [{ key: MISSING_UUID }] }) },
    { caller: 'admin', method: 'GET', path: '/admin/budgets', seed: seed({ query: { tenant: other } }) },
    {
      caller: 'admin',
      method: 'PUT',
      path: '/admin/webhooks/endpoint',
      seed: seed({ bodies: [{ tenant: other, url: 'https://hooks.example.com/fuzz', events: ['budget.*'] }] }),
    },
    { caller: 'admin', method: 'GET', path: '/admin/webhooks/endpoint', seed: seed({ query: { tenant: other } }) },
    { caller: 'admin', method: 'PUT', path: '/admin/alerts/settings', seed: seed({ bodies: [{ tenant: other, balanceBelow: '1.00', quotaBelow: 20 }] }) },
    { caller: 'admin', method: 'GET', path: '/admin/alerts/settings', seed: seed({ query: { tenant: other } }) },
    { caller: 'admin', method: 'GET', path: '/admin/alerts', seed: seed({ query: { tenant: other, limit: '5' } }) },
    {
      caller: 'admin',
      method: 'PUT',
      path: '/admin/projects/members',
      seed: seed({ bodies: [{ tenant: other, project: 'default', email: 'nobody@example.com', role: 'developer' }] }),
    },
    { caller: 'admin', method: 'POST', path: '/admin/keys/:id/regenerate', seed: seed({ params: { id: [MISSING_UUID] } }) },
    { caller: 'admin', method: 'POST', path: '/admin/keys/:id/revoke', seed: seed({ params: { id: [MISSING_UUID] } }) },
    { caller: 'admin', method: 'PUT', path: '/admin/subscriptions', seed: seed({ bodies: [{ tenant: other, expires: '2030-01-01T00:00:00Z' }] }) },
    { caller: 'admin', method: 'POST', path: '/admin/balance/topup', seed: seed({ bodies: [{ tenant: other, amount: '1.00' }] }) },
    { caller: 'admin', method: 'GET', path: '/admin/balance', seed: seed({ query: { tenant: other } }) },
    { caller: 'admin', method: 'GET', path: '/admin/usage', seed: seed({ query: { tenant: other, since: TIME, until: '2026-12-01T00:00:00Z', by: 'model' } }) },
    { caller: 'admin', method: 'GET', path: '/admin/usage/requests', seed: seed({ query: { tenant: other, requestId: 'req-missing', limit: '5' } }) },
    { caller: 'admin', method: 'PUT', path: '/admin/billing', seed: seed({ bodies: [{ tenant: other, limits: { tenant: { rpm: 1000 } } }] }) },
    { caller: 'admin', method: 'GET', path: '/admin/usage/dead-letters', seed: seed({ query: { consumer: 'usage', limit: '5' } }) },
    { caller: 'admin', method: 'POST', path: '/admin/usage/dead-letters/replay', seed: seed({ bodies: [{ ids: ['999999999'] }] }) },
    { caller: 'admin', method: 'GET', path: '/admin/ledger', seed: seed({ query: { tenant: other, since: TIME, limit: '5' } }) },
    { caller: 'admin', method: 'POST', path: '/admin/reconcile', seed: seed({ bodies: [{ tenant: other }] }) },
    { caller: 'admin', method: 'POST', path: '/admin/webhooks/secret/rotate', seed: seed({ bodies: [{ tenant: other }] }) },
    { caller: 'admin', method: 'GET', path: '/admin/webhooks/deliveries', seed: seed({ query: { task: 'task-missing' } }) },
    { caller: 'admin', method: 'POST', path: '/admin/webhooks/deliveries/:id/redeliver', seed: seed({ params: { id: ['msg_missing'] } }) },
    { caller: 'admin', method: 'PUT', path: '/admin/cache', seed: seed({ bodies: [{ tenant: other, mode: null }] }) },
    { caller: 'admin', method: 'POST', path: '/admin/cache/purge', seed: seed({ bodies: [{ tenant: other }] }) },
    {
      caller: 'admin',
      method: 'POST',
      path: '/admin/console/invites',
      seed: seed({ bodies: [{ tenant: other, email: 'fuzz-invite@example.com', role: 'viewer' }] }),
    },
    { caller: 'admin', method: 'GET', path: '/admin/console/users', seed: seed({ query: { tenant: other } }) },
    { caller: 'admin', method: 'GET', path: '/admin/console/sessions', seed: seed({ query: { tenant: other } }) },
    { caller: 'admin', method: 'POST', path: '/admin/console/sessions/revoke', seed: seed({ bodies: [{ tenant: other }] }) },
    {
      caller: 'admin',
      method: 'PUT',
      path: '/admin/console/oidc',
      seed: seed({ bodies: [{ tenant: other, issuer: 'https://login.example.com', clientId: 'gw', clientSecret: 'secret' }] }),
    },
    { caller: 'admin', method: 'GET', path: '/admin/console/oidc', seed: seed({ query: { tenant: other } }) },
  ];
}
