// Deployment tokens and the credentials they are exchanged for (docs/admin-api.md).
import { z } from '../zod';
import { isoDate } from './shared';

export const ZCreateDeploymentTokenBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    expires_in_hours: z.number().int().min(1).max(8760).default(168),
    max_uses: z.number().int().min(1).max(1_000_000).optional(),
  })
  .openapi('CreateDeploymentTokenBody');

export const ZDeploymentToken = z
  .object({
    object: z.literal('deployment_token'),
    id: z.string(),
    tenant_id: z.string(),
    name: z.string().nullable(),
    token_prefix: z.string(),
    status: z.enum(['active', 'expired', 'exhausted', 'revoked']),
    expires_at: isoDate,
    max_uses: z.number().int().nullable(),
    use_count: z.number().int(),
    revoked_at: isoDate.nullable(),
    last_used_at: isoDate.nullable(),
    created: isoDate,
    token: z.string().optional().openapi({ description: 'the secret `dpl_…`; only in the creation response' }),
  })
  .openapi('DeploymentToken');

/** POST /deploy/v1/credentials: the deployment token in the body instead of the URL (docs/admin-api.md). */
export const ZDeploymentCredentialsBody = z
  .strictObject({
    token: z.string().min(1).max(256).openapi({ description: 'the deployment token `dpl_…`' }),
  })
  .openapi('DeploymentCredentialsBody');

export const ZDeploymentCredentials = z
  .object({
    object: z.literal('deployment_credentials'),
    tenant_id: z.string(),
    org_id: z.string(),
    api_base_url: z.string(),
    api_key: z.object({
      id: z.string(),
      key: z.string(),
      scopes: z.array(z.string()),
      livemode: z.boolean(),
      expires_at: isoDate.nullable(),
    }),
  })
  .openapi('DeploymentCredentials');
