import { GatewayError, keyAllowsRoute, type KeyContext, type RouteDef } from '@gateway/contracts';

/** Refuses a route outside the key's route list, before any body is read or any service is called. */
export function assertKeyMayCall(key: KeyContext, route: RouteDef): void {
  if (keyAllowsRoute(key.routes, route.id)) return;
  throw new GatewayError(
    'permission_denied',
    `This API key may not call ${route.method} ${route.path} (route ${route.id}): its route list is ${key.routes!.join(', ')}.`,
  );
}
