// Risk feeds for firewalls (docs/feeds.md): feed tokens, the tenant's block list, and the feed lists
// themselves (plain text; documented here by their path parameters).
import { z } from '../zod';
import { isoDate } from './shared';

/** The feed lists (docs/feeds.md "Formats"); @risk/firewalls renders each. */
export const FEED_FORMAT_VALUES = ['panos-url', 'panos-domain', 'fortigate-url', 'fortigate-domain'] as const;
/** A feed is cut at a severity band (docs/public-api.md "Severity bands"); informational is not offered. */
export const FEED_SEVERITY_VALUES = ['critical', 'high', 'medium', 'low'] as const;

export const ZFeedListParams = z.object({
  format: z.enum(FEED_FORMAT_VALUES),
  severity: z.enum(FEED_SEVERITY_VALUES),
});

export const ZCreateFeedTokenBody = z
  .strictObject({ name: z.string().trim().min(1).max(100).optional() })
  .openapi('CreateFeedTokenBody');

/** POST /feeds/v1/tokens/{id}/rotate (docs/feeds.md "Feed tokens"): how long the previous secret keeps working. */
export const ZRotateFeedTokenBody = z
  .strictObject({
    grace_period_seconds: z.int().min(0).max(86_400).optional().openapi({
      description: 'seconds the previous secret keeps working (default 86400, 24 h); 0 ends it at once, after a leak',
      example: 0,
    }),
  })
  .openapi('RotateFeedTokenBody');

export const ZFeedToken = z
  .object({
    object: z.literal('feed_token'),
    id: z.string().openapi({ description: 'also the HTTP Basic user name a firewall sends' }),
    name: z.string().nullable(),
    token_prefix: z.string(),
    status: z.enum(['active', 'revoked']),
    firewall_id: z
      .string()
      .nullable()
      .openapi({ description: 'set when the sync minted the token for this firewall (a policy rule on the feed)' }),
    previous_expires_at: isoDate
      .nullable()
      .openapi({ description: 'after a rotation: until when the previous secret still works' }),
    revoked_at: isoDate.nullable(),
    last_used_at: isoDate.nullable(),
    created: isoDate,
    token: z
      .string()
      .optional()
      .openapi({ description: 'the secret `rkf_…`; only in the creation and rotation responses' }),
  })
  .openapi('FeedToken');

export const ZAddBlockEntriesBody = z
  .strictObject({
    entries: z
      .array(
        z.strictObject({
          value: z
            .string()
            .min(1)
            .max(255)
            .openapi({ description: '`example.com` (and its subdomains), `*.example.com`, or a URL without scheme' }),
          note: z.string().max(200).optional(),
        }),
      )
      .min(1)
      .max(500),
  })
  .openapi('AddFeedBlockEntriesBody');

export const ZBlockEntry = z
  .object({
    object: z.literal('feed_block_entry'),
    id: z.string(),
    kind: z.enum(['domain', 'url']),
    value: z.string(),
    note: z.string().nullable(),
    created: isoDate,
  })
  .openapi('FeedBlockEntry');
