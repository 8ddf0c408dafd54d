import type { RouteDefinition } from '@risk/common/http';
import type { AdminContext } from '../http/route';
import { apiKeyRoutes } from './api-keys';
import { categoryRoutes } from './categories';
import { consoleRoutes } from './console';
import { deployRoutes } from './deploy';
import { deploymentTokenRoutes } from './deployment-tokens';
import { feedRoutes } from './feeds';
import { firewallRoutes } from './firewalls';
import { policyRoutes } from './policies';
import { serviceRoutes } from './service';
import { routeTableOf, type AdminRouteRow } from './table';
import { tenantRoutes } from './tenants';
import { toolRoutes } from './tools';

/**
 * Every admin route, in mounting order (literal paths before parameterised ones). The app, the endpoints
 * map of GET / and the OpenAPI document all come from these definitions (docs/architecture.md "Routes").
 */
export const ADMIN_ROUTES: ReadonlyArray<RouteDefinition<AdminContext>> = [
  ...serviceRoutes(() => ADMIN_ROUTES),
  ...deployRoutes,
  ...tenantRoutes,
  ...deploymentTokenRoutes,
  ...firewallRoutes,
  ...categoryRoutes,
  ...policyRoutes,
  ...toolRoutes,
  ...feedRoutes,
  ...consoleRoutes,
  ...apiKeyRoutes,
];

/** One row per admin route as clients see it (GET / lists them; the tests walk them). */
export function adminRouteTable(): AdminRouteRow[] {
  return routeTableOf(ADMIN_ROUTES);
}
