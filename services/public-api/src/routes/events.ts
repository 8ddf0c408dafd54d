import { defineRoute } from '@risk/common/http';
import { EXAMPLE_EVENT, EXAMPLE_EVENT_LIST, z, ZEvent, ZEventList, ZListEventsQuery } from '@risk/contracts';
import { getEvent, listEvents } from '../domain/events/events';
import { readDbOf } from '../deps';
import { anyApiKey } from '../http/route';

const ZEventParams = z.object({
  event_id: z.string().min(1).max(100).openapi({ example: 'evt_01jd3q5k8m0000000000000000' }),
});

/**
 * /v1/events (docs/webhooks.md "Events"). Any valid API key reads the events its org is the
 * audience of, so these two GETs authenticate but check no scope.
 */
export const eventRoutes = [
  defineRoute({
    method: 'get',
    path: '/events',
    auth: anyApiKey,
    query: ZListEventsQuery,
    doc: {
      examples: { response: EXAMPLE_EVENT_LIST },
      summary: "List the org's events of the last 30 days, newest first (any valid API key)",
      description:
        "Events the key's org is the audience of: its own events, asset events for assets it has submitted signals for, and threat events. Use it to reconcile missed webhook deliveries.",
      response: { description: 'a list envelope of events', schema: ZEventList },
    },
    // a list tolerates replication lag (docs/scaling.md "Read replicas")
    handler: ({ deps, auth, query }) => listEvents(readDbOf(deps).prisma, auth, query),
  }),
  defineRoute({
    method: 'get',
    path: '/events/:event_id',
    auth: anyApiKey,
    params: ZEventParams,
    doc: {
      examples: { response: EXAMPLE_EVENT },
      summary: "Retrieve an event (any valid API key; events outside the org's audience are 404)",
      response: { description: 'the event', schema: ZEvent },
      errors: [404],
    },
    handler: ({ deps, auth, params }) => getEvent(deps.prisma, auth, params.event_id),
  }),
];
