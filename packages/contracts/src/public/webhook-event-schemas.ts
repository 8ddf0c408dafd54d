// The payload schemas of the webhook deliveries (docs/webhooks.md "Event catalogue"): the envelope of every event
// with its `type` fixed and its `data` typed, and the Standard Webhooks headers. The payloads are what the
// producers write: the asset as the API renders it for asset.created, the enrichment's summary of the asset for
// asset.enriched and asset.risk_changed, the failure for asset.enrichment_failed, the threat, and the endpoint
// (never its secret). webhook-events.ts lists them by type with their examples.
import { z } from '../zod';
import { ENRICHMENT_STATUSES, RISK_SEVERITIES, ZAsset } from './assets';
import { EVENT_TYPE_NAMES } from './events';
import { ZChangeSummary, ZToolsChange } from './history';
import { ASSET_TYPE_VALUES } from './signals';
import { ZThreat } from './threats';
import { ZFindingTriage } from './triage-state';
import { ZWebhookEndpoint } from './webhooks';

export type EventTypeName = (typeof EVENT_TYPE_NAMES)[number];

/** The envelope of every event (the same JSON GET /v1/events lists), with `type` fixed and `data` typed. */
function zEventOf<T extends EventTypeName, D extends z.ZodType>(type: T, data: D, name: string) {
  return z
    .object({
      id: z.string().openapi({
        description: 'the event id; also the webhook-id header',
        example: 'evt_01m81c44xbbvtaq4wj8b29d5zz',
      }),
      object: z.literal('event'),
      type: z.literal(type),
      created: z.number().int().openapi({ description: 'Unix seconds' }),
      livemode: z.boolean(),
      data,
    })
    .openapi(name);
}

export const ZAssetEnrichmentSummary = z
  .object({
    object: z.literal('asset'),
    fingerprint: z.string(),
    asset_type: z.enum(ASSET_TYPE_VALUES),
    enrichment_status: z.enum(ENRICHMENT_STATUSES),
    intrinsic_risk_score: z.number().int().nullable(),
    intrinsic_risk_severity: z.enum(RISK_SEVERITIES).nullable(),
    publisher: z.string().nullable(),
    aibom: z.string().openapi({ description: 'the AI-BOM id this enrichment wrote' }),
    bom_version: z.number().int(),
    enriched_at: z.number().int().openapi({ description: 'Unix seconds' }),
  })
  .openapi('AssetEnrichmentSummary', {
    description: 'the asset as the enrichment left it (GET /v1/assets/{fingerprint} has the rest)',
  });

const ZRiskPrevious = z.object({
  intrinsic_risk_score: z.number().int(),
  intrinsic_risk_severity: z.enum(RISK_SEVERITIES).nullable(),
});

export const ZAssetEnrichmentFailure = z
  .object({
    object: z.literal('asset'),
    fingerprint: z.string(),
    enrichment_status: z.literal('failed'),
    enrichment_error: z.string().openapi({ description: 'why, redacted (docs/security.md)' }),
  })
  .openapi('AssetEnrichmentFailure');

const ZEndpointForEvent = ZWebhookEndpoint.omit({ secret: true });

export const ZAssetCreatedEvent = zEventOf('asset.created', z.object({ object: ZAsset }), 'AssetCreatedEvent');
export const ZAssetEnrichedEvent = zEventOf(
  'asset.enriched',
  z.object({ object: ZAssetEnrichmentSummary }),
  'AssetEnrichedEvent',
);
export const ZAssetEnrichmentFailedEvent = zEventOf(
  'asset.enrichment_failed',
  z.object({ object: ZAssetEnrichmentFailure }),
  'AssetEnrichmentFailedEvent',
);
export const ZAssetRiskChangedEvent = zEventOf(
  'asset.risk_changed',
  z.object({ object: ZAssetEnrichmentSummary, previous_attributes: ZRiskPrevious, summary: ZChangeSummary }),
  'AssetRiskChangedEvent',
);
export const ZAssetAiBomChangedEvent = zEventOf(
  'asset.aibom_changed',
  z.object({ object: ZAssetEnrichmentSummary, summary: ZChangeSummary }),
  'AssetAiBomChangedEvent',
);
export const ZAssetToolsChangedEvent = zEventOf(
  'asset.tools_changed',
  z.object({ object: ZAssetEnrichmentSummary, tools: ZToolsChange, summary: ZChangeSummary }),
  'AssetToolsChangedEvent',
);
/** The finding's triage as the finding.triage_* events carry it: with its asset and rule. */
const ZTriageEventObject = ZFindingTriage.extend({
  fingerprint: z.string().openapi({ description: 'the asset of the finding' }),
  rule_id: z.string(),
});
export const ZFindingTriageExpiredEvent = zEventOf(
  'finding.triage_expired',
  z.object({
    object: ZTriageEventObject,
    previous_attributes: z.object({
      state: z.literal('accepted_risk'),
      expires_at: z.number().int().openapi({ description: 'when the acceptance ended (unix seconds)' }),
    }),
  }),
  'FindingTriageExpiredEvent',
);
export const ZFindingTriageUpdatedEvent = zEventOf(
  'finding.triage_updated',
  z.object({
    object: ZTriageEventObject,
    previous_attributes: z.object({
      state: ZFindingTriage.shape.state.openapi({ description: 'the state before (`open` when never triaged)' }),
    }),
  }),
  'FindingTriageUpdatedEvent',
);
export const ZThreatCreatedEvent = zEventOf('threat.created', z.object({ object: ZThreat }), 'ThreatCreatedEvent');
export const ZThreatUpdatedEvent = zEventOf(
  'threat.updated',
  z.object({
    object: ZThreat,
    previous_attributes: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'the old values of the changed fields, and `updated`' }),
  }),
  'ThreatUpdatedEvent',
);
/**
 * One STIX import (POST /v1/threats/import) that created or changed threats: every org gets this one event, the
 * importing org also each threat's threat.created / threat.updated (docs/webhooks.md "Event catalogue").
 */
export const ZThreatImportedObject = z
  .object({
    object: z.literal('threat_import'),
    bundle_id: z
      .string()
      .openapi({ description: 'the imported STIX bundle id', example: 'bundle--5d0092c5-5f74-4287-9642-33f4c354e56d' }),
    livemode: z.boolean(),
    created_by_org: z.string().openapi({ description: 'the org that imported the bundle', example: 'org_acme' }),
    created_threat_ids: z
      .array(z.string())
      .openapi({ description: 'the threats the import created (read each with GET /v1/threats/{threat_id})' }),
    updated_threat_ids: z.array(z.string()).openapi({ description: 'the threats the import changed' }),
  })
  .openapi('ThreatImportedObject');
export type ThreatImportedObject = z.infer<typeof ZThreatImportedObject>;
export const ZThreatImportedEvent = zEventOf(
  'threat.imported',
  z.object({ object: ZThreatImportedObject }),
  'ThreatImportedEvent',
);
export const ZWebhookEndpointDisabledEvent = zEventOf(
  'webhook_endpoint.disabled',
  z.object({
    object: ZEndpointForEvent,
    previous_attributes: z.object({ status: z.literal('enabled'), disabled_reason: z.null() }),
  }),
  'WebhookEndpointDisabledEvent',
);
/** Any delivery's body, by `type` (for TypeScript callers; the document lists each under `webhooks`). */
export const ZWebhookEvent = z
  .discriminatedUnion('type', [
    ZAssetCreatedEvent,
    ZAssetEnrichedEvent,
    ZAssetEnrichmentFailedEvent,
    ZAssetRiskChangedEvent,
    ZAssetAiBomChangedEvent,
    ZAssetToolsChangedEvent,
    ZThreatCreatedEvent,
    ZThreatUpdatedEvent,
    ZThreatImportedEvent,
    ZWebhookEndpointDisabledEvent,
  ])
  .openapi('WebhookEvent', { description: 'the body of a webhook delivery, by event type' });
export type WebhookEvent = z.infer<typeof ZWebhookEvent>;

/** The Standard Webhooks headers of every delivery (docs/webhooks.md "Headers and signature"). */
export const ZWebhookDeliveryHeaders = z.object({
  'webhook-id': z.string().openapi({
    description: 'the event id: the same on every retry of the event to the endpoint; drop duplicates by it',
    example: 'evt_01m81c44xbbvtaq4wj8b29d5zz',
  }),
  'webhook-timestamp': z
    .string()
    .regex(/^\d{1,12}$/)
    .openapi({ description: 'Unix seconds of this attempt; refuse more than 5 minutes off', example: '1795339297' }),
  'webhook-signature': z.string().openapi({
    description:
      'space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}">`, keyed by the base64-decoded part of the `whsec_…` secret',
    example: 'v1,X+HvWOOLgF87j+F1+eBqpHKNV22DBjaSQrZsfmeeur8=',
  }),
});
