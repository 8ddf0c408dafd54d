import type { PrismaClient } from '@risk/db';
import { sha256Hex, randomToken } from './crypto';
import { SCOPES, type Scope } from '@risk/contracts';
import { newId, ID_PREFIXES } from '@risk/db';

// the list lives in the contracts, which the admin API's key routes validate with (docs/guides/auth-and-scopes.md)

/**
 * What a deployment credential gets: enough to run a collector, nothing administrative. `artifacts:read` lets a
 * collector look up the verdicts of the model files it finds by hash (docs/artifacts.md "Artifacts in the API");
 * uploading bytes (`artifacts:write`) stays a choice made per key.
 */
export const DEPLOYMENT_KEY_SCOPES: Scope[] = [
  'signals:write',
  'signals:read',
  'assets:read',
  'threats:read',
  'artifacts:read',
];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

export interface MintedApiKey {
  id: string;
  key: string;
  org_id: string;
  scopes: Scope[];
  livemode: boolean;
  expires_at: string | null;
}

export interface MintApiKeyInput {
  org_id: string;
  scopes: Scope[];
  livemode: boolean;
  expires_at?: Date | null;
  name?: string | null;
  deployment_token_id?: string | null;
}

/** Builds a new key (`rk_live_…`/`rk_test_…`, 32 random bytes) and the row that stores only its hash. */
export function buildApiKey(input: MintApiKeyInput) {
  const key = `rk_${input.livemode ? 'live' : 'test'}_${randomToken(32)}`;
  const row = {
    id: newId(ID_PREFIXES.apiKey),
    org_id: input.org_id,
    livemode: input.livemode,
    key_hash: hashApiKey(key),
    key_prefix: key.slice(0, 12),
    last4: key.slice(-4),
    scopes: [...new Set(input.scopes)],
    name: input.name ?? null,
    deployment_token_id: input.deployment_token_id ?? null,
    expires_at: input.expires_at ?? null,
  };
  const minted: MintedApiKey = {
    id: row.id,
    key,
    org_id: row.org_id,
    scopes: row.scopes,
    livemode: row.livemode,
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
  };
  return { key, row, minted };
}

type ApiKeyWriter = Pick<PrismaClient, 'apiKey'>;

/**
 * Creates and stores a key; the plaintext is returned once and never stored. A bare insert for fixtures, benches and
 * tests: operators and tenants mint through api-key-store.ts createOrgApiKey (the per-org limit, the suspended-tenant
 * refusal, the expiry bound).
 */
export async function mintApiKey(prisma: ApiKeyWriter, input: MintApiKeyInput): Promise<MintedApiKey> {
  const { row, minted } = buildApiKey(input);
  await prisma.apiKey.create({ data: row });
  return minted;
}
