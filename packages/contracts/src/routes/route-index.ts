import { ROUTES } from './route-table';
import type { RouteDef } from './route.types';

export interface RouteIndexEntry {
  method: string;
  path: string;
  family: string;
  auth: string;
  status: string;
  summary: string;
}

export interface RouteIndex {
  total: number;
  routes: RouteIndexEntry[];
  planned: RouteIndexEntry[];
}

const AUTH_LABEL = { bearer: 'Authorization: Bearer <API_KEY>', msgc: 'x-api-key: <API_KEY> + msgc-version: 2023-06-01' } as const;

function entry(r: RouteDef): RouteIndexEntry {
  return { method: r.method, path: r.path, family: r.family, auth: AUTH_LABEL[r.auth], status: r.status, summary: r.summary };
}

/** The machine-readable route index served at /docs/api-endpoints.json. */
export function buildRouteIndex(routes: readonly RouteDef[] = ROUTES): RouteIndex {
  const built = routes.filter((r) => r.built).map(entry);
  const planned = routes.filter((r) => !r.built).map(entry);
  return { total: built.length + planned.length, routes: built, planned };
}
