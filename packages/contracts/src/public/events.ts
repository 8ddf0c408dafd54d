// Event contracts (docs/webhooks.md): the objects webhook deliveries carry and GET /v1/events lists.
import { z } from '../zod';
import { ZListQuery, zList } from '../common';
import { publicRegistry } from '../openapi';
import { ZChangeSummary, ZToolsChange } from './history';

/** The event catalogue (@risk/common/events names it EVENT_TYPES and writes the events). */
export const EVENT_TYPE_NAMES = [
  'asset.created',
  'asset.enriched',
  'asset.enrichment_failed',
  'asset.risk_changed',
  'asset.aibom_changed',
  'asset.tools_changed',
  // to the org only: its accepted_risk triage passed expires_at and is open again (docs/triage.md)
  'finding.triage_expired',
  // to the org only: one of its keys set a finding's triage state (PUT …/findings/{id}/triage; docs/triage.md)
  'finding.triage_updated',
  'threat.created',
  'threat.updated',
  // one per STIX import, to every org; the import's own threat.created/updated go to the importing org only
  'threat.imported',
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
        summary: ZChangeSummary.optional().openapi({
          description: 'asset.risk_changed, asset.aibom_changed, asset.tools_changed: what the enrichment changed',
        }),
        tools: ZToolsChange.optional(),
      })
      .catchall(z.unknown()),
  })
  .openapi('Event');
export type Event = z.infer<typeof ZEvent>;

export const ZEventList = zList(ZEvent, 'EventList');

export const ZListEventsQuery = ZListQuery.extend({
  type: ZEventType.optional().openapi({ description: 'only events of this type' }),
});

publicRegistry.register('Event', ZEvent);
