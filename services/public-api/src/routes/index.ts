import type { RouteDefinition } from '@risk/common/http';
import type { AppDeps } from '../deps';
import { advisoryRoutes } from './advisories';
import { artifactRoutes } from './artifacts';
import { assetRoutes } from './assets';
import { eventRoutes } from './events';
import { historyRoutes } from './history';
import { overviewRoutes } from './overview';
import { signalRoutes } from './signals';
import { suppressionRoutes } from './suppressions';
import { threatRoutes } from './threats';
import { triageRoutes } from './triage';
import { webhookRoutes } from './webhooks';

/**
 * The documented /v1 routes by resource, in mounting order. Adding a resource is one line here: its
 * routes/<resource>.ts exports `defineRoute(...)`s (see routes/signals.ts); the router and the OpenAPI
 * document both come from them.
 */
export const V1_RESOURCES: ReadonlyArray<ReadonlyArray<RouteDefinition<AppDeps>>> = [
  threatRoutes,
  eventRoutes,
  webhookRoutes,
  signalRoutes,
  assetRoutes,
  historyRoutes,
  overviewRoutes,
  advisoryRoutes,
  triageRoutes,
  suppressionRoutes,
  artifactRoutes,
];
