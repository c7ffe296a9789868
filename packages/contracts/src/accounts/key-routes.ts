// A key's route list: route ids of the edge's route table (`oaic.embeddings`), a leading part of them
// (`oaic`, a whole family; `oaic.files`) or `*` patterns; an empty list is every route.
import { z } from 'zod';

/** An entry of a key's route list. */
export const RoutePattern = z.string().regex(/^[a-z0-9*][a-z0-9._*-]{0,127}$/, 'a route id, a family or a * pattern, e.g. oaic.embeddings, msgc');

export const KeyRoutes = z.array(RoutePattern).max(100, 'at most 100 entries');

const compiled = new Map<string, RegExp>();

function globOf(entry: string): RegExp {
  let glob = compiled.get(entry);
  if (!glob) {
    glob = new RegExp(
      `^${entry
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\/-]/g, '\\$&'))
        .join('.*')}$`,
    );
    if (compiled.size >= 10_000) compiled.clear();
    compiled.set(entry, glob);
  }
  return glob;
}

/** Whether one entry names `routeId`: the id itself, a leading part of it up to a dot, or a matching pattern. */
export function routeEntryMatches(entry: string, routeId: string): boolean {
  if (entry === routeId || routeId.startsWith(`${entry}.`)) return true;
  return entry.includes('*') && globOf(entry).test(routeId);
}

/** Whether a key whose route list is `routes` may call the route `routeId`. */
export function keyAllowsRoute(routes: readonly string[] | undefined, routeId: string): boolean {
  return !routes || routes.length === 0 || routes.some((entry) => routeEntryMatches(entry, routeId));
}
