import { RPCS, type ConsoleTaskKind, type ConsoleTaskPage, type Rpc } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import { ownOriginOf } from './console-client';
import type { ConsoleRoutes } from './console-routes';

const TIMEOUT = { timeoutMs: 15_000 };

/** Each task kind's list, answered by the service that owns the kind. */
const TASK_LISTS = {
  media: RPCS.media.console.tasks,
  music: RPCS.music.console.tasks,
  batch: RPCS.files.console.batches,
} satisfies Record<ConsoleTaskKind, Rpc>;

/**
 * The tenant console's tasks: each kind from the service that owns it, with the charge and refund the
 * ledger holds for it (deliveries and a key's limits are relayed).
 */
export function registerTenantActivity(routes: ConsoleRoutes, bus: NatsBus, publicBaseUrl: string | undefined): void {
  routes.handle('tasks', async ({ kind, ...query }, { session }, request): Promise<ConsoleTaskPage> => {
    const tenantId = session.tenantId!;
    const origin = publicBaseUrl ?? ownOriginOf(request);
    const page = await bus.call(TASK_LISTS[kind], { ...query, tenantId, origin }, TIMEOUT);
    // A task's charge is its hold's; a batch's, its lines' records' (each line held on its own).
    const billingId = (task: (typeof page.data)[number]) => task.holdId ?? task.id;
    const requestIds = page.data.flatMap((task) => (task.holdId ? [task.holdId] : []));
    const subjectIds = page.data.flatMap((task) => (task.holdId ? [] : [task.id]));
    const charges = page.data.length > 0 ? (await bus.call(RPCS.accounts.console.charges, { tenantId, requestIds, subjectIds }, TIMEOUT)).data : [];
    const chargeOf = new Map(charges.map((charge) => [charge.requestId, charge]));
    return { data: page.data.map((task) => ({ ...task, charge: chargeOf.get(billingId(task)) ?? null })), nextCursor: page.nextCursor };
  });
}
