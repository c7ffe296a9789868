import type { RouteRequest } from '../routing/route-request';

/** A read (GET) may be sent again after a bus drop: the bus retries it once when the link is back. */
export function isRead(request: RouteRequest): boolean {
  return request.route.method === 'GET';
}
