import type { z } from 'zod';
import { CONSOLE_ROUTES, type ConsoleRoute, type ConsoleRouteInput, type ConsoleRouteName, type ConsoleRouteTable } from '../console/console-routes';
import type { Rpc, RpcMessage, RpcReplyOf } from './rpc';
import { RPCS } from './rpcs';

/** The tenant a tenant session signed in to; operator sessions have none. */
export interface ConsoleCaller {
  tenant: string;
  tenantId: string;
  /** The signed-in person, whose rights on a project accounts reads for itself. */
  userId: string;
}

type CallerOf<R extends ConsoleRoute> = R['side'] extends 'operator' ? null : ConsoleCaller;

/** How a console route's parsed input (and its caller) becomes its subject's message, and the service's reply its answer. */
export interface ConsoleRelay<R extends ConsoleRoute = ConsoleRoute, S extends Rpc = Rpc> {
  rpc: S;
  /** The message; the parsed input itself when absent. */
  message?(input: ConsoleRouteInput<R>, caller: CallerOf<R>): RpcMessage<S>;
  /** The answer; the service's reply itself when absent. */
  answer?(reply: RpcReplyOf<S>): z.input<R['reply']>;
}

type Fits<A, B> = [A] extends [B] ? true : false;

type RelayHow<R extends ConsoleRoute, S extends Rpc> = (Fits<ConsoleRouteInput<R>, RpcMessage<S>> extends true
  ? { message?: ConsoleRelay<R, S>['message'] }
  : { message: NonNullable<ConsoleRelay<R, S>['message']> }) &
  (Fits<RpcReplyOf<S>, z.input<R['reply']>> extends true ? { answer?: ConsoleRelay<R, S>['answer'] } : { answer: NonNullable<ConsoleRelay<R, S>['answer']> });

/** A relay for the route named `name`: `message` and `answer` are asked for exactly where the shapes differ. */
function relay<K extends ConsoleRouteName, S extends Rpc>(
  _name: K,
  rpc: S,
  ...how: Partial<RelayHow<ConsoleRouteTable[K], S>> extends RelayHow<ConsoleRouteTable[K], S>
    ? [RelayHow<ConsoleRouteTable[K], S>?]
    : [RelayHow<ConsoleRouteTable[K], S>]
): ConsoleRelay {
  return { rpc, ...how[0] } as ConsoleRelay;
}

/**
 * The console routes the edge relays to a service, by route name; every other route of CONSOLE_ROUTES has
 * a handler in the edge (signing in and out, the CSV export, lists that join two services' answers).
 */
export const CONSOLE_RELAYS: Partial<Record<ConsoleRouteName, ConsoleRelay>> = {
  inviteLookup: relay('inviteLookup', RPCS.accounts.console.users.inviteInfo),
  inviteAccept: relay('inviteAccept', RPCS.accounts.console.users.acceptInvite),
  keys: relay('keys', RPCS.accounts.keys.list, { message: (_input, { tenant }) => ({ tenant }), answer: (keys) => ({ data: keys }) }),
  createKey: relay('createKey', RPCS.accounts.keys.create, { message: ({ name }, { tenant }) => ({ tenant, name }) }),
  regenerateKey: relay('regenerateKey', RPCS.accounts.keys.regenerate, { message: ({ id }, { tenant }) => ({ id, tenant }) }),
  revokeKey: relay('revokeKey', RPCS.accounts.keys.revoke, { message: ({ id }, { tenant }) => ({ id, tenant }) }),
  rotateWebhookSecret: relay('rotateWebhookSecret', RPCS.music.webhooks.secretRotate, { message: (_input, { tenant, tenantId }) => ({ tenant, tenantId }) }),
  alerts: relay('alerts', RPCS.accounts.alerts.list, { message: ({ limit }, { tenant }) => ({ tenant, limit }), answer: (alerts) => ({ data: alerts }) }),
  alertEndpoint: relay('alertEndpoint', RPCS.accounts.alerts.endpointShow, { message: (_input, { tenant }) => ({ tenant }) }),
  setAlertEndpoint: relay('setAlertEndpoint', RPCS.accounts.alerts.endpointSet, { message: (body, { tenant }) => ({ ...body, tenant }) }),
  models: relay('models', RPCS.accounts.console.models, { message: (_input, { tenantId }) => ({ tenantId }) }),
  balance: relay('balance', RPCS.accounts.balance.show, { message: (_input, { tenant }) => ({ tenant }) }),
  overview: relay('overview', RPCS.accounts.console.usage.overview, { message: (_input, { tenant }) => ({ tenant }) }),
  usageSummary: relay('usageSummary', RPCS.accounts.console.usage.summary, { message: (query, { tenant, tenantId }) => ({ ...query, tenant, tenantId }) }),
  usageRecords: relay('usageRecords', RPCS.accounts.console.usage.records, { message: (query, { tenantId }) => ({ ...query, tenantId }) }),
  usageRecord: relay('usageRecord', RPCS.accounts.console.usage.record, { message: ({ requestId }, { tenant }) => ({ tenant, requestId }) }),
  deliveries: relay('deliveries', RPCS.music.webhooks.console.deliveries, { message: (query, { tenantId }) => ({ ...query, tenantId }) }),
  redeliver: relay('redeliver', RPCS.music.webhooks.console.redeliver, { message: ({ id }, { tenantId }) => ({ id, tenantId }) }),
  keyLimits: relay('keyLimits', RPCS.accounts.console.keyLimits.show, { message: ({ id }, { tenant }) => ({ tenant, id }) }),
  setKeyLimits: relay('setKeyLimits', RPCS.accounts.console.keyLimits.set, { message: ({ id, limits }, { tenant }) => ({ tenant, id, limits }) }),
  projects: relay('projects', RPCS.accounts.console.projects.list, { message: (_input, { tenant, userId }) => ({ tenant, userId }) }),
  setProjectBudget: relay('setProjectBudget', RPCS.accounts.console.projects.setBudget, {
    message: ({ project, amount, ...values }, { tenant, userId }) => ({ tenant, userId, project, amountMicros: amount.toString(), ...values }),
  }),
  clearProjectBudget: relay('clearProjectBudget', RPCS.accounts.console.projects.clearBudget, {
    message: ({ project }, { tenant, userId }) => ({ tenant, userId, project }),
  }),
  setKeyBudget: relay('setKeyBudget', RPCS.accounts.console.projects.setBudget, {
    message: ({ id, amount, ...values }, { tenant, userId }) => ({ tenant, userId, key: id, amountMicros: amount.toString(), ...values }),
  }),
  clearKeyBudget: relay('clearKeyBudget', RPCS.accounts.console.projects.clearBudget, {
    message: ({ id }, { tenant, userId }) => ({ tenant, userId, key: id }),
  }),
  grantProjectRole: relay('grantProjectRole', RPCS.accounts.projects.grant, { message: (input, { tenant }) => ({ ...input, tenant }) }),

  tenants: relay('tenants', RPCS.accounts.console.tenants),
  createTenant: relay('createTenant', RPCS.accounts.tenants.create),
  topUp: relay('topUp', RPCS.accounts.balance.topup, { message: ({ slug, amount }) => ({ tenant: slug, amountMicros: amount.toString() }) }),
  tenantProjects: relay('tenantProjects', RPCS.accounts.console.projects.ofTenant, { message: ({ slug }) => ({ tenant: slug }) }),
  setSubscription: relay('setSubscription', RPCS.accounts.subscriptions.set, { message: ({ slug, expires }) => ({ tenant: slug, expires }) }),
  deadLetters: relay('deadLetters', RPCS.accounts.console.deadLetters),
  deadLetter: relay('deadLetter', RPCS.accounts.console.deadLetter),
  replayDeadLetters: relay('replayDeadLetters', RPCS.accounts.deadLetters.replay),
  queues: relay('queues', RPCS.accounts.console.queues),
  reconciliation: relay('reconciliation', RPCS.accounts.console.reconcileLast),
  runReconciliation: relay('runReconciliation', RPCS.accounts.console.reconcileRun),
};

/** The routes of one listener's console, each with its relay when it has one. */
export function consoleRoutesOf(side: ConsoleRoute['side']): Array<{ name: ConsoleRouteName; route: ConsoleRoute; relay: ConsoleRelay | undefined }> {
  return (Object.entries(CONSOLE_ROUTES) as Array<[ConsoleRouteName, ConsoleRoute]>)
    .filter(([, route]) => route.side === side)
    .map(([name, route]) => ({ name, route, relay: CONSOLE_RELAYS[name] }));
}
