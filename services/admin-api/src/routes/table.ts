import { openApiPath, type RouteDefinition } from '@risk/common/http';
import type { AdminContext } from '../http/route';

/** One row per admin route as clients see it: method, documented path (`{id}`), credential and summary. */
export interface AdminRouteRow {
  method: string;
  path: string;
  auth: string;
  summary: string;
}

/** The rows of `routes` (the admin API's: `adminRouteTable()` in ./index.ts). */
export function routeTableOf(routes: ReadonlyArray<RouteDefinition<AdminContext>>): AdminRouteRow[] {
  return routes.map((r) => ({
    method: r.method,
    path: openApiPath(r.path),
    auth: r.label,
    summary: r.summary ?? '',
  }));
}
