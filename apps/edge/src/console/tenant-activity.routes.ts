import {
  ConsoleCharges,
  ConsoleDeliveriesQuery,
  ConsoleDelivery,
  ConsoleDeliveryIdRequest,
  ConsoleDeliveryPage,
  ConsoleKeyLimits,
  ConsoleKeyLimitsRequest,
  ConsoleTaskServicePage,
  ConsoleTasksQuery,
  KeyIdRequest,
  parseInput,
  SUBJECTS,
  type ConsoleTaskKind,
  type ConsoleTaskPage,
} from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import { ownOriginOf } from './console-client';
import type { SignedIn } from './console-guard';
import type { ConsoleRoutes } from './console-routes';

const TIMEOUT = { timeoutMs: 15_000 };

/** Each task kind's list, answered by the service that owns the kind. */
const TASK_LISTS: Record<ConsoleTaskKind, string> = {
  media: SUBJECTS.media.console.tasks,
  music: SUBJECTS.music.console.tasks,
  batch: SUBJECTS.files.console.batches,
};

const tenantOf = ({ session }: SignedIn) => ({ tenant: session.tenantSlug!, tenantId: session.tenantId! });

/**
 * The tenant console's tasks (each kind from the service that owns it, with the charge and refund the
 * ledger holds for it), webhook deliveries with every attempt and redelivery, and a key's own limits.
 */
export function registerTenantActivity(routes: ConsoleRoutes, bus: NatsBus, publicBaseUrl: string | undefined): void {
  routes.signedIn('GET', '/console/api/tasks', 'console.tasks', 'read', async (request, _reply, call): Promise<ConsoleTaskPage> => {
    const { kind, ...query } = parseInput(ConsoleTasksQuery, request.query ?? {}, 'query');
    const { tenantId } = tenantOf(call);
    const origin = publicBaseUrl ?? ownOriginOf(request);
    const page = await bus.request(TASK_LISTS[kind], { ...query, tenantId, origin }, ConsoleTaskServicePage, TIMEOUT);
    // A task's charge is its hold's; a batch's, its lines' records' (each line held on its own).
    const billingId = (task: (typeof page.data)[number]) => task.holdId ?? task.id;
    const requestIds = page.data.flatMap((task) => (task.holdId ? [task.holdId] : []));
    const subjectIds = page.data.flatMap((task) => (task.holdId ? [] : [task.id]));
    const charges =
      page.data.length > 0 ? (await bus.request(SUBJECTS.accounts.console.charges, { tenantId, requestIds, subjectIds }, ConsoleCharges, TIMEOUT)).data : [];
    const chargeOf = new Map(charges.map((charge) => [charge.requestId, charge]));
    return { data: page.data.map((task) => ({ ...task, charge: chargeOf.get(billingId(task)) ?? null })), nextCursor: page.nextCursor };
  });

  routes.signedIn('GET', '/console/api/webhooks/deliveries', 'console.webhook-deliveries', 'read', async (request, _reply, call) => {
    const query = parseInput(ConsoleDeliveriesQuery, request.query ?? {}, 'query');
    return bus.request(SUBJECTS.music.webhooks.console.deliveries, { ...query, tenantId: tenantOf(call).tenantId }, ConsoleDeliveryPage, TIMEOUT);
  });

  routes.signedIn('POST', '/console/api/webhooks/deliveries/:id/redeliver', 'console.webhook-redeliver', 'webhooks', async (request, _reply, call) => {
    const { id } = parseInput(ConsoleDeliveryIdRequest, request.params, 'path');
    return bus.request(SUBJECTS.music.webhooks.console.redeliver, { id, tenantId: tenantOf(call).tenantId }, ConsoleDelivery, TIMEOUT);
  });

  routes.signedIn('GET', '/console/api/keys/:id/limits', 'console.key-limits', 'read', async (request, _reply, call) => {
    const { id } = parseInput(KeyIdRequest, request.params, 'path');
    return bus.request(SUBJECTS.accounts.console.keyLimits.show, { tenant: tenantOf(call).tenant, id }, ConsoleKeyLimits, TIMEOUT);
  });

  routes.signedIn('PUT', '/console/api/keys/:id/limits', 'console.key-limits-set', 'keys', async (request, _reply, call) => {
    const { id } = parseInput(KeyIdRequest, request.params, 'path');
    const { limits } = parseInput(ConsoleKeyLimitsRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.console.keyLimits.set, { tenant: tenantOf(call).tenant, id, limits }, ConsoleKeyLimits, TIMEOUT);
  });
}
