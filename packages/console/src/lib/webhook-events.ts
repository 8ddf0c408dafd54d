// The webhook event catalogue (docs/webhooks.md "Events"), as the create form offers it: every type the API
// accepts (checked against the generated types), or "*" for all.
import type { CreateWebhookBody } from '../api/types';

export type EventType = Exclude<CreateWebhookBody['events'][number], '*'>;
const EVENTS: Record<EventType, string> = {
  'asset.created': 'an asset was seen for the first time',
  'asset.enriched': 'an asset was enriched',
  'asset.enrichment_failed': 'enrichment of an asset failed',
  'asset.risk_changed': "an asset's risk score or severity changed",
  'asset.aibom_changed': "an asset's AI-BOM changed",
  'asset.tools_changed': "an agent's or MCP server's tools changed",
  'finding.triage_expired': 'a triage decision expired',
  'finding.triage_updated': 'a finding was triaged',
  'threat.created': 'a threat was created',
  'threat.updated': 'a threat was updated',
  'threat.imported': 'another org imported threats (one event per import)',
  'webhook_endpoint.disabled': 'an endpoint was disabled after failures',
};
export const EVENT_TYPES = Object.keys(EVENTS) as EventType[];
export const describeEvent = (t: EventType): string => EVENTS[t];

/** The `events` of a create or update body: ["*"] when every type (or none, meaning all) is chosen. */
export function eventsBody(chosen: readonly EventType[]): CreateWebhookBody['events'] {
  return chosen.length === 0 || chosen.length === EVENT_TYPES.length ? ['*'] : [...chosen];
}
