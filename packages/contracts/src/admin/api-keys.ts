// The org's public-API keys, managed with a tenant token (docs/admin-api.md "API keys").
import { NO_CONTROL } from '../common';
import { SCOPES } from '../scopes';
import { z } from '../zod';
import { isoDate } from './shared';

/** The longest lifetime a key minted through the admin API or the CLI may be given (docs/admin-api.md "API keys"). */
export const API_KEY_MAX_EXPIRY_DAYS = 365;

export const ZCreateApiKeyBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).regex(NO_CONTROL, 'no control characters'),
    scopes: z
      .array(z.enum(SCOPES))
      .min(1)
      .max(SCOPES.length * 2)
      .openapi({ description: 'public-API scopes (docs/guides/auth-and-scopes.md); duplicates are dropped' }),
    livemode: z.boolean().default(true).openapi({ description: 'false mints an `rk_test_…` key (test mode)' }),
    expires_in_days: z
      .number()
      .int()
      .min(1)
      .max(API_KEY_MAX_EXPIRY_DAYS)
      .optional()
      .openapi({ description: `days until the key expires (1–${API_KEY_MAX_EXPIRY_DAYS}); exclusive with expires_at` }),
    expires_at: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({
        description: `when the key expires (ISO 8601, in the future, at most ${API_KEY_MAX_EXPIRY_DAYS} days ahead); exclusive with expires_in_days`,
      }),
  })
  .openapi('CreateApiKeyBody');

export const ZApiKey = z
  .object({
    object: z.literal('api_key'),
    id: z.string(),
    org_id: z.string(),
    name: z.string().nullable(),
    key_prefix: z.string().openapi({ description: 'the first 12 characters (`rk_live_xxxx`)' }),
    last4: z.string(),
    redacted_key: z.string().openapi({ description: '`key_prefix…last4`, to recognise a key' }),
    scopes: z.array(z.string()),
    livemode: z.boolean(),
    status: z.enum(['active', 'expired', 'revoked']),
    deployment_token_id: z
      .string()
      .nullable()
      .openapi({ description: 'set for a key exchanged from a deployment token: revoke it through that token' }),
    created: isoDate,
    expires_at: isoDate.nullable(),
    revoked_at: isoDate.nullable(),
    last_used_at: isoDate.nullable().openapi({ description: 'the last public-API request, to about 30 s' }),
    key: z.string().optional().openapi({ description: 'the secret `rk_…`; only in the creation response' }),
  })
  .openapi('ApiKey');
