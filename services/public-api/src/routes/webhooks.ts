import { requireSecret } from '@risk/common/config';
import { defineRoute } from '@risk/common/http';
import { allowedHostsFor, OutboundGuard } from '@risk/common/outbound';
import { ZListQuery } from '@risk/contracts';
import {
  EXAMPLE_CREATE_WEBHOOK,
  EXAMPLE_UPDATE_WEBHOOK,
  EXAMPLE_WEBHOOK_DELIVERY,
  EXAMPLE_WEBHOOK_ENDPOINT,
  EXAMPLE_WEBHOOK_ENDPOINT_WITH_SECRET,
  exampleList,
  z,
  ZCreateWebhookBody,
  ZDeletedWebhookEndpoint,
  ZListWebhookDeliveriesQuery,
  ZUpdateWebhookBody,
  ZWebhookDeliveryList,
  ZWebhookEndpoint,
  ZWebhookEndpointList,
} from '@risk/contracts';
import type { AppDeps } from '../deps';
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
import { apiKey } from '../http/route';

const ZWebhookParams = z.object({
  webhook_id: z.string().min(1).max(100).openapi({ example: 'we_01jd3q5k8m0000000000000000' }),
});

const built = new WeakMap<AppDeps, WebhookDeps>();
/** Built on first use per app: SECRETS_KEY is only required once a webhook route is called. */
function webhookDeps(deps: AppDeps): WebhookDeps {
  let wd = built.get(deps);
  if (!wd) {
    wd = {
      prisma: deps.prisma,
      guard: new OutboundGuard(allowedHostsFor(deps.config, 'webhook')),
      secretsKey: requireSecret(deps.config, 'SECRETS_KEY'),
      maxEndpointsPerOrg: deps.config.WEBHOOK_ENDPOINTS_PER_ORG,
    };
    built.set(deps, wd);
  }
  return wd;
}

/** /v1/webhooks (docs/webhooks.md): org-scoped endpoints, all under scope webhooks:write. */
const manageWebhooks = apiKey('webhooks:write');

export const webhookRoutes = [
  defineRoute({
    method: 'post',
    path: '/webhooks',
    auth: manageWebhooks,
    body: ZCreateWebhookBody,
    status: 201,
    idempotency: 'middleware',
    // the response shows the signing secret: the copy kept for idempotent replay is encrypted
    storeEncrypted: true,
    doc: {
      examples: {
        request: EXAMPLE_CREATE_WEBHOOK,
        response: EXAMPLE_WEBHOOK_ENDPOINT_WITH_SECRET,
        errors: {
          400: {
            code: 'url_not_allowed',
            param: 'url',
            message: 'The webhook URL resolves to a private address (10.0.0.12), which is not allowed.',
          },
        },
      },
      summary: 'Create a webhook endpoint; the response carries the signing secret once (scope webhooks:write)',
      response: { description: 'the endpoint with its secret', schema: ZWebhookEndpoint },
    },
    handler: ({ deps, auth, body }) => createWebhookEndpoint(webhookDeps(deps), auth, body),
  }),
  defineRoute({
    method: 'get',
    path: '/webhooks',
    auth: manageWebhooks,
    query: ZListQuery,
    doc: {
      examples: { response: exampleList('/v1/webhooks', [EXAMPLE_WEBHOOK_ENDPOINT]) },
      summary: "List the org's webhook endpoints (scope webhooks:write)",
      response: { description: 'a list envelope of endpoints', schema: ZWebhookEndpointList },
    },
    handler: ({ deps, auth, query }) => listWebhookEndpoints(webhookDeps(deps), auth, query),
  }),
  defineRoute({
    method: 'get',
    path: '/webhooks/:webhook_id',
    auth: manageWebhooks,
    params: ZWebhookParams,
    doc: {
      examples: { response: EXAMPLE_WEBHOOK_ENDPOINT },
      summary: 'Retrieve a webhook endpoint (scope webhooks:write; never shows the secret)',
      response: { description: 'the endpoint', schema: ZWebhookEndpoint },
      errors: [404],
    },
    handler: ({ deps, auth, params }) => getWebhookEndpoint(webhookDeps(deps), auth, params.webhook_id),
  }),
  defineRoute({
    method: 'post',
    path: '/webhooks/:webhook_id',
    auth: manageWebhooks,
    params: ZWebhookParams,
    body: ZUpdateWebhookBody,
    idempotency: 'middleware',
    doc: {
      examples: {
        request: EXAMPLE_UPDATE_WEBHOOK,
        response: { ...EXAMPLE_WEBHOOK_ENDPOINT, events: ['*'], description: 'SOC pipeline (all events)' },
      },
      summary: 'Update a webhook endpoint (scope webhooks:write)',
      response: { description: 'the updated endpoint', schema: ZWebhookEndpoint },
      errors: [404],
    },
    handler: ({ deps, auth, params, body }) =>
      updateWebhookEndpoint(webhookDeps(deps), { actor: auth, id: params.webhook_id, body }),
  }),
  defineRoute({
    method: 'delete',
    path: '/webhooks/:webhook_id',
    auth: manageWebhooks,
    params: ZWebhookParams,
    doc: {
      examples: { response: { object: 'webhook_endpoint', id: EXAMPLE_WEBHOOK_ENDPOINT.id, deleted: true } },
      summary: 'Delete a webhook endpoint and its pending deliveries (scope webhooks:write)',
      response: { description: 'deleted', schema: ZDeletedWebhookEndpoint },
      errors: [404],
    },
    // needs no SECRETS_KEY: it deletes without reading or writing a secret
    handler: ({ deps, auth, params }) => deleteWebhookEndpoint({ prisma: deps.prisma }, auth, params.webhook_id),
  }),
  defineRoute({
    method: 'post',
    path: '/webhooks/:webhook_id/rotate_secret',
    auth: manageWebhooks,
    params: ZWebhookParams,
    body: z.strictObject({}),
    idempotency: 'middleware',
    storeEncrypted: true,
    doc: {
      examples: {
        request: {},
        response: { ...EXAMPLE_WEBHOOK_ENDPOINT, secret: 'whsec_tD1rH0nE4XqVz8cWm2Lk7PfYs9Bj3Ug6Na5Ri1Oe0Ic=' },
      },
      summary: 'Replace the signing secret; the response carries the new secret once (scope webhooks:write)',
      response: { description: 'the endpoint with its new secret', schema: ZWebhookEndpoint },
      errors: [404],
    },
    handler: ({ deps, auth, params }) => rotateWebhookSecret(webhookDeps(deps), auth, params.webhook_id),
  }),
  defineRoute({
    method: 'get',
    path: '/webhooks/:webhook_id/deliveries',
    auth: manageWebhooks,
    params: ZWebhookParams,
    query: ZListWebhookDeliveriesQuery,
    doc: {
      examples: {
        response: exampleList(`/v1/webhooks/${EXAMPLE_WEBHOOK_ENDPOINT.id}/deliveries`, [EXAMPLE_WEBHOOK_DELIVERY]),
      },
      summary: "List an endpoint's deliveries with every attempt, newest first (scope webhooks:write)",
      response: { description: 'a list envelope of deliveries', schema: ZWebhookDeliveryList },
      errors: [404],
    },
    handler: ({ deps, auth, params, query }) =>
      listWebhookDeliveries(webhookDeps(deps), { actor: auth, id: params.webhook_id, page: query }),
  }),
];
