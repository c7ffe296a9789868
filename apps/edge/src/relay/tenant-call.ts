import type { TenantCaller } from '@gateway/contracts';
import { clientRequestIdOf } from '../routing/request-id';
import type { RouteRequest } from '../routing/route-request';

/** Who is calling, as every service's payload names it: the server's request id, the key's tenant, the route. */
export function callerOf(request: RouteRequest): TenantCaller {
  const caller: TenantCaller = {
    requestId: request.requestId,
    tenantId: request.key.tenantId,
    keyId: request.key.keyId,
    keyKind: request.key.kind,
    route: request.route.id,
  };
  const clientRequestId = clientRequestIdOf(request.raw.headers);
  if (clientRequestId !== undefined) caller.clientRequestId = clientRequestId;
  const { models, denyModels, project } = request.key;
  if (models.length > 0) caller.models = models;
  if (denyModels !== undefined && denyModels.length > 0) caller.denyModels = denyModels;
  if (project !== undefined && (project.models.length > 0 || project.denyModels.length > 0)) caller.project = project;
  if (request.key.budgets.length > 0) caller.budgets = request.key.budgets;
  return caller;
}
