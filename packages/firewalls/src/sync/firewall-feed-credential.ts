// The feed credential a firewall holds (docs/feeds.md "Feed tokens"): when a pushed policy references the risk
// feed, the device is configured with a feed token of its own — minted on the first such push, its secret kept
// encrypted (SECRETS_KEY) so every later push configures the same one. Revoking it (DELETE /feeds/v1/tokens/{id})
// makes the next push mint a new one; the feed answers 401 to the old one at once.
import { decryptSecret, encryptSecret } from '@risk/common/crypto';
import { ID_PREFIXES, newId, type Firewall, type Tx } from '@risk/db';
import type { FeedCredential } from '../connector/types';
import { mintFeedSecret } from '../feeds/feed-token';

export async function firewallFeedCredential(
  tx: Tx,
  input: { firewall: Firewall; secretsKey: string },
): Promise<FeedCredential> {
  const { firewall, secretsKey } = input;
  const existing = await tx.feedToken.findFirst({
    where: { firewall_id: firewall.id, revoked_at: null, secret_ciphertext: { not: null } },
    orderBy: [{ created: 'desc' }, { id: 'desc' }],
  });
  if (existing?.secret_ciphertext)
    return { username: existing.id, password: decryptSecret(existing.secret_ciphertext, secretsKey) };
  const minted = mintFeedSecret();
  const row = await tx.feedToken.create({
    data: {
      id: newId(ID_PREFIXES.feedToken),
      tenant_id: firewall.tenant_id,
      name: `firewall ${firewall.name}`.slice(0, 100),
      token_hash: minted.hash,
      token_prefix: minted.prefix,
      secret_ciphertext: encryptSecret(minted.secret, secretsKey),
      firewall_id: firewall.id,
    },
  });
  return { username: row.id, password: minted.secret };
}
