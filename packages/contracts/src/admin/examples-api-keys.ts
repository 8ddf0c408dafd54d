// Example API keys of the admin API's key routes (docs/architecture.md "Examples"): Acme's security team mints a key
// for its CI pipeline, and the key its laptops' collector got from a deployment token shows beside it.
import type { z } from '../zod';
import type { ZApiKey, ZCreateApiKeyBody } from './api-keys';
import { exampleAdminList } from './examples';

type Of<S extends z.ZodType> = z.infer<S>;

const AT = '2026-11-22T08:14:03.000Z';

export const EXAMPLE_CREATE_API_KEY: Of<typeof ZCreateApiKeyBody> = {
  name: 'ci pipeline',
  scopes: ['signals:write', 'assets:read'],
  livemode: true,
  expires_in_days: 90,
};

export const EXAMPLE_API_KEY: Of<typeof ZApiKey> = {
  object: 'api_key',
  id: 'key_01m81e2v9c4q7x3w8n5t1b6kzd',
  org_id: 'org_acme',
  name: 'ci pipeline',
  key_prefix: 'rk_live_Vx4s',
  last4: 'Qe7M',
  redacted_key: 'rk_live_Vx4s…Qe7M',
  scopes: ['signals:write', 'assets:read'],
  livemode: true,
  status: 'active',
  deployment_token_id: null,
  created: AT,
  expires_at: '2027-02-20T08:14:03.000Z',
  revoked_at: null,
  last_used_at: null,
};

/** The creation response: the only time the secret is shown. */
export const EXAMPLE_API_KEY_CREATED: Of<typeof ZApiKey> = {
  ...EXAMPLE_API_KEY,
  key: 'rk_live_Vx4sT8mQ2pL9rW3yK6nB1cF5hJ0dZaQe7M',
};

const DEPLOYMENT_KEY: Of<typeof ZApiKey> = {
  object: 'api_key',
  id: 'key_01m81c8dkkb77xkmqh8h3t450g',
  org_id: 'org_acme',
  name: 'deployment k8s-collector eu-west-1',
  key_prefix: 'rk_live_5f2K',
  last4: 'j6sE',
  redacted_key: 'rk_live_5f2K…j6sE',
  scopes: ['signals:write', 'signals:read', 'assets:read', 'threats:read', 'artifacts:read'],
  livemode: true,
  status: 'active',
  deployment_token_id: 'dpt_01m81c8dkkb77xkmqh8h3t4508',
  created: '2026-11-22T07:25:40.000Z',
  expires_at: null,
  revoked_at: null,
  last_used_at: '2026-11-22T08:10:31.000Z',
};

export const EXAMPLE_API_KEY_LIST = exampleAdminList('/keys/v1', [EXAMPLE_API_KEY, DEPLOYMENT_KEY]);

export const EXAMPLE_API_KEY_REVOKED: Of<typeof ZApiKey> = {
  ...EXAMPLE_API_KEY,
  status: 'revoked',
  revoked_at: '2026-11-22T09:02:17.000Z',
};
