import type { RouteRequest } from '../routing/route-request';

/** The origin clients reach the gateway on, for signed result links: PUBLIC_BASE_URL when set, else the request's own. */
export function publicOriginOf(request: RouteRequest, publicBaseUrl: string | undefined): string {
  return publicBaseUrl ?? `${request.raw.protocol}://${request.raw.host}`;
}
