import { openApiPath } from '@risk/common/http';
import { ADMIN_ROUTES } from '.';

/** One row per admin route as clients see it: method, documented path (`{id}`), credential and summary. */
export interface AdminRouteRow {
  method: string;
  path: string;
  auth: string;
  summary: string;
}

export function adminRouteTable(): AdminRouteRow[] {
  return ADMIN_ROUTES.map((r) => ({
    method: r.method,
    path: openApiPath(r.path),
    auth: r.label,
    summary: r.summary ?? '',
  }));
}
