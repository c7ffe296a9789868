// A key's route list as an operator writes it: each entry must name at least one route of the route table,
// so a typo is refused where it is typed rather than silently refusing every request.
import { z } from 'zod';
import { RoutePattern, routeEntryMatches } from '../accounts/key-routes';
import { ROUTES } from '../routes/route-table';

const ROUTE_IDS = [...new Set(ROUTES.map((route) => route.id))];

export const KeyRouteList = z
  .array(
    RoutePattern.refine(
      (entry) => ROUTE_IDS.some((id) => routeEntryMatches(entry, id)),
      'names no route of the route table (e.g. oaic.embeddings, oaic, msgc.*)',
    ),
  )
  .min(1, 'name at least one route, or leave routes out')
  .max(100, 'at most 100 entries');
