// Webhook endpoint contracts (docs/webhooks.md). Deliveries follow Standard Webhooks; the signing
// secret `whsec_…` appears only in the creation and rotate_secret responses.
import { z } from '../zod';
import { ZListQuery, zList } from '../common';
import { publicRegistry } from '../openapi';
import { EVENT_TYPE_NAMES } from './events';

const ZEnabledEvents = z
  .array(z.union([z.enum(EVENT_TYPE_NAMES), z.literal('*')]))
  .min(1, 'must list at least one event type, or "*"')
  .max(EVENT_TYPE_NAMES.length + 1)
  .openapi({ description: 'event types from the catalogue, or ["*"] for all' });

const ZMetadata = z
  .record(z.string(), z.string().max(500))
  .refine((m) => Object.keys(m).length <= 50, 'must have at most 50 keys')
  .openapi({ description: 'string key/value pairs, at most 50' });

const ZUrl = z.string().min(1).max(2048).openapi({ description: 'https URL (http is accepted in test mode)' });

export const ZCreateWebhookBody = z
  .strictObject({
    url: ZUrl,
    events: ZEnabledEvents,
    description: z.string().max(500).optional(),
    metadata: ZMetadata.optional(),
  })
  .openapi('CreateWebhookBody');
export type CreateWebhookBody = z.infer<typeof ZCreateWebhookBody>;

export const ZUpdateWebhookBody = z
  .strictObject({
    url: ZUrl.optional(),
    events: ZEnabledEvents.optional(),
    description: z.string().max(500).nullable().optional(),
    metadata: ZMetadata.nullable().optional(),
    status: z
      .enum(['enabled', 'disabled'])
      .optional()
      .openapi({ description: 'disable an endpoint, or re-enable one the platform disabled after failures' }),
  })
  .openapi('UpdateWebhookBody');
export type UpdateWebhookBody = z.infer<typeof ZUpdateWebhookBody>;

export const ZWebhookEndpoint = z
  .object({
    object: z.literal('webhook_endpoint'),
    id: z.string().openapi({ example: 'we_01jd3q5k8m0000000000000000' }),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    metadata: z.record(z.string(), z.string()).nullable(),
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z.string().nullable(),
    livemode: z.boolean(),
    created: z.number().int().openapi({ description: 'Unix seconds' }),
    updated: z.number().int().openapi({ description: 'Unix seconds' }),
    secret: z
      .string()
      .optional()
      .openapi({ description: '`whsec_<base64>`: only in the create and rotate_secret responses' }),
  })
  .openapi('WebhookEndpoint');
export type WebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

export const ZWebhookEndpointList = zList(ZWebhookEndpoint, 'WebhookEndpointList');

export const ZDeletedWebhookEndpoint = z
  .object({ object: z.literal('webhook_endpoint'), id: z.string(), deleted: z.literal(true) })
  .openapi('DeletedWebhookEndpoint');

/** pending (not attempted yet), retrying (next attempt scheduled), delivered, failed (gave up or endpoint disabled) */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed'] as const;

export const ZWebhookDeliveryAttempt = z
  .object({
    object: z.literal('webhook_delivery_attempt'),
    id: z.string(),
    attempt: z.number().int(),
    status: z.enum(['succeeded', 'failed']),
    response_status: z.number().int().nullable(),
    response_body: z.string().nullable().openapi({ description: 'first 1 KiB of the response body' }),
    error: z.string().nullable().openapi({ description: 'why no response was received (timeout, refused, network)' }),
    latency_ms: z.number().int(),
    created: z.number().int(),
  })
  .openapi('WebhookDeliveryAttempt');

export const ZWebhookDelivery = z
  .object({
    object: z.literal('webhook_delivery'),
    id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempt_count: z.number().int(),
    last_response_status: z.number().int().nullable(),
    next_attempt_at: z.number().int().nullable(),
    delivered_at: z.number().int().nullable(),
    created: z.number().int(),
    attempts: z.array(ZWebhookDeliveryAttempt),
  })
  .openapi('WebhookDelivery');
export type WebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveryList = zList(ZWebhookDelivery, 'WebhookDeliveryList');

export const ZListWebhookDeliveriesQuery = ZListQuery.extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});

publicRegistry.register('WebhookEndpoint', ZWebhookEndpoint);
