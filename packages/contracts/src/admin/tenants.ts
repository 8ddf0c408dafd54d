// Tenant and tenant-token contracts (docs/admin-api.md).
import { z } from '../zod';
import { isoDate } from './shared';

export const ZCreateTenantBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    admin_email: z.email().max(254),
  })
  .openapi('CreateTenantBody');

export const ZTenant = z
  .object({
    object: z.literal('tenant'),
    id: z.string(),
    name: z.string(),
    admin_email: z.string(),
    org_id: z.string(),
    status: z.enum(['active', 'suspended']).openapi({
      description:
        'suspended: every tenant token, deployment token and API key of the tenant is refused (403 tenant_suspended)',
    }),
    suspended_at: isoDate.nullable(),
    created: isoDate,
    updated: isoDate,
  })
  .openapi('Tenant');

export const ZCreateTenantTokenBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    expires_in_days: z.number().int().min(1).max(365).optional(),
  })
  .openapi('CreateTenantTokenBody');

export const ZTenantToken = z
  .object({
    object: z.literal('tenant_token'),
    id: z.string().openapi({ description: "the token's id (its JWT `jti`), used to revoke it" }),
    tenant_id: z.string(),
    name: z.string().nullable(),
    status: z.enum(['active', 'expired', 'revoked']),
    expires_at: isoDate,
    revoked_at: isoDate.nullable(),
    last_used_at: isoDate.nullable().openapi({ description: 'to the minute' }),
    created: isoDate,
    token: z.string().optional().openapi({ description: 'the secret JWT; only in the minting response' }),
  })
  .openapi('TenantToken');

export const ZRegisteredTenant = ZTenant.extend({ tenant_token: ZTenantToken }).openapi('RegisteredTenant');
