// The webhook deliveries in the public document's `webhooks` section (OpenAPI 3.1; docs/webhooks.md): one entry per
// event type with its payload schema (webhook-event-schemas.ts), the Standard Webhooks headers and an example.
import type { z } from '../zod';
import { publicRegistry } from '../openapi';
import {
  EXAMPLE_ASSET,
  EXAMPLE_ASSET_ENRICHED_OBJECT,
  EXAMPLE_FINGERPRINT,
  EXAMPLE_THREAT,
  EXAMPLE_THREAT_UPDATED,
  EXAMPLE_WEBHOOK_ENDPOINT,
} from './examples';
import type { ChangeSummary } from './history';
import {
  ZAssetAiBomChangedEvent,
  ZAssetCreatedEvent,
  ZAssetEnrichedEvent,
  ZAssetEnrichmentFailedEvent,
  ZAssetRiskChangedEvent,
  ZAssetToolsChangedEvent,
  ZFindingTriageExpiredEvent,
  ZFindingTriageUpdatedEvent,
  ZThreatCreatedEvent,
  ZThreatImportedEvent,
  ZThreatUpdatedEvent,
  ZWebhookDeliveryHeaders,
  ZWebhookEndpointDisabledEvent,
  type EventTypeName,
} from './webhook-event-schemas';

export * from './webhook-event-schemas';

const T = 1795339297;

/** What the second enrichment of the example LoRA changed (docs/history.md "Change events"). */
const EXAMPLE_SUMMARY: ChangeSummary = {
  risk: { score: { from: 20, to: 62 }, severity: { from: 'low', to: 'high' } },
  bom_version: { from: 1, to: 2 },
  aibom: {
    from_version: 1,
    to_version: 2,
    components: {
      added_count: 1,
      removed_count: 0,
      changed_count: 1,
      added: [{ type: 'model', name: 'meta-llama/Llama-3.1-8B-Instruct', version: null }],
      removed: [],
      changed: [{ type: 'model', name: 'acme-ai/llama-3.1-8b-support-lora', fields: ['version'] }],
    },
    primary_license: { from: null, to: 'llama3.1' },
    lineage: {
      relation: { from: null, to: 'adapter' },
      base_models_added: ['meta-llama/Llama-3.1-8B-Instruct'],
      base_models_removed: [],
    },
  },
  findings: {
    added_count: 1,
    removed_count: 0,
    added: [{ id: 'fnd_01m81c8dkkb77xkmqh8h3t44zs', rule_id: 'R01', severity: 'high' }],
    removed: [],
  },
};
const ENRICHED_EVENT_BASE = { object: 'event' as const, created: T, livemode: true };

/** Each event type: its payload schema, what it means, and an example delivery body. */
export const WEBHOOK_EVENTS = {
  'asset.created': {
    schema: ZAssetCreatedEvent,
    summary: 'The first signal for a fingerprint created an asset',
    example: {
      id: 'evt_01m81afr1k6ep7z3qj0w5n8c2d',
      type: 'asset.created',
      ...ENRICHED_EVENT_BASE,
      created: T - 41,
      data: {
        object: {
          ...EXAMPLE_ASSET,
          enrichment_status: 'pending',
          intrinsic_risk_score: null,
          intrinsic_risk_severity: null,
          publisher_trust: null,
          aibom: null,
          signal_count: 1,
          first_seen: T - 42,
          last_seen: T - 42,
          enriched_at: null,
          created: T - 41,
          updated: T - 41,
        },
      },
    },
  },
  'asset.enriched': {
    schema: ZAssetEnrichedEvent,
    summary: 'An enrichment finished: new score, findings and AI-BOM',
    example: {
      id: 'evt_01m81c44xbbvtaq4wj8b29d5zy',
      type: 'asset.enriched',
      ...ENRICHED_EVENT_BASE,
      data: { object: EXAMPLE_ASSET_ENRICHED_OBJECT },
    },
  },
  'asset.enrichment_failed': {
    schema: ZAssetEnrichmentFailedEvent,
    summary: 'An enrichment failed (the asset keeps its last good result)',
    example: {
      id: 'evt_01m81c44xbbvtaq4wj8b29d600',
      type: 'asset.enrichment_failed',
      ...ENRICHED_EVENT_BASE,
      data: {
        object: {
          object: 'asset',
          fingerprint: EXAMPLE_FINGERPRINT,
          enrichment_status: 'failed',
          enrichment_error: 'analysis_timeout: the analysis did not finish within 30000 ms',
        },
      },
    },
  },
  'asset.risk_changed': {
    schema: ZAssetRiskChangedEvent,
    summary: "An enrichment changed the asset's score or severity",
    example: {
      id: 'evt_01m81c44xbbvtaq4wj8b29d5zz',
      type: 'asset.risk_changed',
      ...ENRICHED_EVENT_BASE,
      data: {
        object: EXAMPLE_ASSET_ENRICHED_OBJECT,
        previous_attributes: { intrinsic_risk_score: 20, intrinsic_risk_severity: 'low' },
        summary: EXAMPLE_SUMMARY,
      },
    },
  },
  'asset.aibom_changed': {
    schema: ZAssetAiBomChangedEvent,
    summary: 'An enrichment produced a new AI-BOM version after another',
    example: {
      id: 'evt_01m81c44xbbvtaq4wj8b29d604',
      type: 'asset.aibom_changed',
      ...ENRICHED_EVENT_BASE,
      data: { object: EXAMPLE_ASSET_ENRICHED_OBJECT, summary: EXAMPLE_SUMMARY },
    },
  },
  'asset.tools_changed': {
    schema: ZAssetToolsChangedEvent,
    summary: "The asset's MCP tool set differs from the previous enrichment",
    example: {
      id: 'evt_01m81c44xbbvtaq4wj8b29d605',
      type: 'asset.tools_changed',
      ...ENRICHED_EVENT_BASE,
      data: {
        object: {
          ...EXAMPLE_ASSET_ENRICHED_OBJECT,
          fingerprint: 'npm:@acme/mcp-server-tickets@3.2.0',
          asset_type: 'mcp_server',
          publisher: 'acme',
          intrinsic_risk_score: 58,
          intrinsic_risk_severity: 'high',
        },
        tools: {
          added_count: 1,
          removed_count: 0,
          changed_count: 1,
          added: ['export_all_tickets'],
          removed: [],
          changed: ['search_tickets'],
          drift_findings: [{ id: 'fnd_01m81c8dkkb77xkmqh8h3t44zv', rule_id: 'R31', severity: 'high' }],
        },
        summary: {
          ...EXAMPLE_SUMMARY,
          risk: { score: { from: 35, to: 58 }, severity: { from: 'medium', to: 'high' } },
          aibom: null,
          bom_version: { from: 4, to: 5 },
        },
      },
    },
  },
  'finding.triage_expired': {
    schema: ZFindingTriageExpiredEvent,
    summary: "An org's accepted risk passed its expiry: the finding's triage returned to open (docs/triage.md)",
    example: {
      id: 'evt_01m81c44xbbvtaq4wj8b29d607',
      type: 'finding.triage_expired',
      ...ENRICHED_EVENT_BASE,
      data: {
        object: {
          object: 'finding_triage',
          fingerprint: 'hf:acme-ai/llama-3.1-8b-support-lora',
          rule_id: 'R10',
          finding_key: '5e8a1f3c90b7d24e6a1c0f93',
          state: 'open',
          justification: null,
          comment: 'accepted until the licence review',
          expires_at: null,
          set_by: 'system',
          created: T - 86400 * 30,
          updated: T,
        },
        previous_attributes: { state: 'accepted_risk', expires_at: T },
      },
    },
  },
  'finding.triage_updated': {
    schema: ZFindingTriageUpdatedEvent,
    summary: "One of the org's API keys set a finding's triage state (docs/triage.md)",
    example: {
      id: 'evt_01m81c44xbbvtaq4wj8b29d609',
      type: 'finding.triage_updated',
      ...ENRICHED_EVENT_BASE,
      data: {
        object: {
          object: 'finding_triage',
          fingerprint: 'hf:acme-ai/llama-3.1-8b-support-lora',
          rule_id: 'R10',
          finding_key: '5e8a1f3c90b7d24e6a1c0f93',
          state: 'accepted_risk',
          justification: null,
          comment: 'accepted until the licence review',
          expires_at: T + 86400 * 90,
          set_by: 'key_01m81c44xbbvtaq4wj8b29d6k1',
          created: T,
          updated: T,
        },
        previous_attributes: { state: 'open' },
      },
    },
  },
  'threat.created': {
    schema: ZThreatCreatedEvent,
    summary: 'An org shared a threat (POST /v1/threats)',
    example: {
      id: 'evt_01m81c44xbbvtaq4wj8b29d601',
      type: 'threat.created',
      ...ENRICHED_EVENT_BASE,
      created: EXAMPLE_THREAT.created,
      data: { object: EXAMPLE_THREAT },
    },
  },
  'threat.updated': {
    schema: ZThreatUpdatedEvent,
    summary: 'A threat changed (POST /v1/threats/{threat_id})',
    example: {
      id: 'evt_01m81c44xbbvtaq4wj8b29d602',
      type: 'threat.updated',
      ...ENRICHED_EVENT_BASE,
      created: EXAMPLE_THREAT_UPDATED.updated,
      data: {
        object: EXAMPLE_THREAT_UPDATED,
        previous_attributes: { severity: 'high', confidence: 0.85, updated: EXAMPLE_THREAT.updated },
      },
    },
  },
  'threat.imported': {
    schema: ZThreatImportedEvent,
    summary: 'An org imported a STIX bundle that created or changed threats (POST /v1/threats/import)',
    example: {
      id: 'evt_01m81c44xbbvtaq4wj8b29d604',
      type: 'threat.imported',
      ...ENRICHED_EVENT_BASE,
      created: EXAMPLE_THREAT.created,
      data: {
        object: {
          object: 'threat_import',
          bundle_id: 'bundle--5d0092c5-5f74-4287-9642-33f4c354e56d',
          livemode: true,
          created_by_org: EXAMPLE_THREAT.created_by_org,
          created_threat_ids: [EXAMPLE_THREAT.id],
          updated_threat_ids: [],
        },
      },
    },
  },
  'webhook_endpoint.disabled': {
    schema: ZWebhookEndpointDisabledEvent,
    summary: 'The platform disabled an endpoint after 24 h of failures (or a 410)',
    example: {
      id: 'evt_01m81c44xbbvtaq4wj8b29d603',
      type: 'webhook_endpoint.disabled',
      ...ENRICHED_EVENT_BASE,
      created: T + 86400,
      data: {
        object: {
          ...EXAMPLE_WEBHOOK_ENDPOINT,
          status: 'disabled',
          disabled_reason: 'every delivery failed for 24 hours (last: HTTP 503)',
          updated: T + 86400,
        },
        previous_attributes: { status: 'enabled', disabled_reason: null },
      },
    },
  },
} as const satisfies Record<EventTypeName, { schema: z.ZodType; summary: string; example: unknown }>;

for (const [type, event] of Object.entries(WEBHOOK_EVENTS)) {
  publicRegistry.registerWebhook({
    method: 'post',
    path: type,
    operationId: `webhook_${type.replace(/[^a-z]+/g, '_')}`,
    summary: event.summary,
    description:
      'A signed POST to every enabled endpoint of the audience subscribed to this type (or `*`); verify the signature on the raw body (docs/webhooks.md).',
    security: [],
    request: {
      headers: ZWebhookDeliveryHeaders,
      body: { content: { 'application/json': { schema: event.schema, example: event.example } } },
    },
    responses: {
      200: { description: 'any 2xx acknowledges the delivery (the body is ignored)' },
      410: { description: 'Gone: the platform disables the endpoint at once' },
    },
  });
}
