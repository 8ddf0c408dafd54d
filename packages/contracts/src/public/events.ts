// Event contracts (docs/webhooks.md): the objects webhook deliveries carry and GET /v1/events lists.
import { z } from '../zod';
import { ZListParams, zList } from '../common';
import { errorResponses, publicRegistry } from '../openapi';

/** The event catalogue (@risk/common re-exports it as EVENT_TYPES and writes the events). */
export const EVENT_TYPE_NAMES = [
  'asset.created',
  'asset.enriched',
  'asset.enrichment_failed',
  'asset.risk_changed',
  'threat.created',
  'threat.updated',
  'webhook_endpoint.disabled',
] as const;

export const ZEventType = z.enum(EVENT_TYPE_NAMES);

export const ZEvent = z
  .object({
    id: z.string().openapi({ example: 'evt_01jd3q5k8m0000000000000000' }),
    object: z.literal('event'),
    type: ZEventType,
    created: z.number().int().openapi({ description: 'Unix seconds' }),
    livemode: z.boolean(),
    data: z
      .object({
        object: z
          .record(z.string(), z.unknown())
          .openapi({ description: 'the resource as the API rendered it when the event happened' }),
        previous_attributes: z
          .record(z.string(), z.unknown())
          .optional()
          .openapi({ description: 'old values of the changed fields (*.updated, asset.risk_changed)' }),
      })
      .catchall(z.unknown()),
  })
  .openapi('Event');
export type Event = z.infer<typeof ZEvent>;

export const ZEventList = zList(ZEvent, 'EventList');

export const ZListEventsQuery = ZListParams.extend({
  type: ZEventType.optional().openapi({ description: 'only events of this type' }),
});

const security = [{ apiKey: [] }];

publicRegistry.register('Event', ZEvent);
publicRegistry.registerPath({
  method: 'get',
  path: '/v1/events',
  summary: "List the org's events of the last 30 days, newest first (any valid API key)",
  description:
    "Events the key's org is the audience of: its own events, asset events for assets it has submitted signals for, and threat events. Use it to reconcile missed webhook deliveries.",
  security,
  request: { query: ZListEventsQuery },
  responses: {
    200: { description: 'a list envelope of events', content: { 'application/json': { schema: ZEventList } } },
    ...errorResponses(400, 401, 500),
  },
});
publicRegistry.registerPath({
  method: 'get',
  path: '/v1/events/{event_id}',
  summary: "Retrieve an event (any valid API key; events outside the org's audience are 404)",
  security,
  request: { params: z.object({ event_id: z.string().openapi({ example: 'evt_01jd3q5k8m0000000000000000' }) }) },
  responses: {
    200: { description: 'the event', content: { 'application/json': { schema: ZEvent } } },
    ...errorResponses(400, 401, 404, 500),
  },
});
