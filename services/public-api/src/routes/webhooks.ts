import type { ApiKeyAuthenticator } from '@risk/common';
import { OutboundGuard, parseOrThrow, requireScope, requireSecret, ZListQuery } from '@risk/common';
import { WEBHOOK_DELIVERY_STATUSES, ZCreateWebhookBody, ZUpdateWebhookBody } from '@risk/contracts';
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import { authenticateAndLimit, defineRoute, mountRoutes, routeGuard } from '../http/route';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  type WebhookDeps,
} from '../domain/webhooks/endpoints';

const ZWebhookParams = z.object({ webhook_id: z.string().min(1).max(100) });
const ZDeliveriesQuery = ZListQuery.extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});

/** /v1/webhooks (docs/webhooks.md): org-scoped endpoints, all under scope webhooks:write. */
export function webhooksRouter(deps: AppDeps, authenticator: ApiKeyAuthenticator): Router {
  let webhookDeps: WebhookDeps | undefined;
  // built on first use: SECRETS_KEY is only required once a webhook route is called
  const wd = (): WebhookDeps =>
    (webhookDeps ??= {
      db: deps.prisma,
      guard: new OutboundGuard(deps.config.OUTBOUND_ALLOWED_HOSTS),
      secretsKey: requireSecret(deps.config, 'SECRETS_KEY'),
      maxEndpointsPerOrg: deps.config.WEBHOOK_ENDPOINTS_PER_ORG,
    });
  const scope = 'webhooks:write' as const;
  const router = Router();
  // DELETE is outside the route builder's methods: authenticate and check the scope the same way
  const guard = routeGuard(deps);
  router.delete('/webhooks/:webhook_id', async (req, res) => {
    await authenticateAndLimit(guard, authenticator, req, res);
    const auth = requireScope(res, scope);
    const params = parseOrThrow(ZWebhookParams, { ...req.params });
    res.json(await deleteWebhookEndpoint({ db: deps.prisma }, auth, params.webhook_id));
  });
  return mountRoutes(router, deps, authenticator, [
    defineRoute({
      method: 'post',
      path: '/webhooks',
      scope,
      body: ZCreateWebhookBody,
      status: 201,
      // the response shows the signing secret: the copy kept for idempotent replay is encrypted
      storeEncrypted: true,
      handler: ({ auth, body }) => createWebhookEndpoint(wd(), auth, body),
    }),
    defineRoute({
      method: 'get',
      path: '/webhooks',
      scope,
      query: ZListQuery,
      handler: ({ auth, query }) => listWebhookEndpoints(wd(), auth, query),
    }),
    defineRoute({
      method: 'get',
      path: '/webhooks/:webhook_id',
      scope,
      params: ZWebhookParams,
      handler: ({ auth, params }) => getWebhookEndpoint(wd(), auth, params.webhook_id),
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks/:webhook_id',
      scope,
      params: ZWebhookParams,
      body: ZUpdateWebhookBody,
      handler: ({ auth, params, body }) => updateWebhookEndpoint(wd(), auth, params.webhook_id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks/:webhook_id/rotate_secret',
      scope,
      params: ZWebhookParams,
      body: z.strictObject({}),
      storeEncrypted: true,
      handler: ({ auth, params }) => rotateWebhookSecret(wd(), auth, params.webhook_id),
    }),
    defineRoute({
      method: 'get',
      path: '/webhooks/:webhook_id/deliveries',
      scope,
      params: ZWebhookParams,
      query: ZDeliveriesQuery,
      handler: ({ auth, params, query }) => listWebhookDeliveries(wd(), auth, params.webhook_id, query),
    }),
  ]);
}
