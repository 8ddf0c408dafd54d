// A new feed token (docs/feeds.md "Feed tokens"): the secret is in this response only; only its hash is stored.
import { ID_PREFIXES, newId } from '@risk/db';
import { mintFeedSecret } from '@risk/firewalls';
import type { PrismaDeps } from '../deps';
import { serializeFeedToken } from './serialize-feeds';

export async function createFeedToken(deps: PrismaDeps, input: { tenantId: string; name?: string }) {
  const minted = mintFeedSecret();
  const row = await deps.prisma.feedToken.create({
    data: {
      id: newId(ID_PREFIXES.feedToken),
      tenant_id: input.tenantId,
      name: input.name ?? null,
      token_hash: minted.hash,
      token_prefix: minted.prefix,
    },
  });
  return { ...serializeFeedToken(row), token: minted.secret };
}
