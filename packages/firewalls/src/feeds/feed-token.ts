// Feed credentials (docs/feeds.md "Feed tokens"): a token id `ftk_…` (the HTTP Basic user name) and a secret
// `rkf_…` (the password, or a bearer token). Only the secret's SHA-256 is looked up; the admin API mints them
// for people, the sync mints one per firewall that pulls the feed.
import { randomToken, sha256Hex } from '@risk/common/crypto';

export const FEED_SECRET_PREFIX = 'rkf_';

export interface MintedFeedSecret {
  secret: string;
  hash: string;
  /** what lists show: enough to tell tokens apart, never enough to use one */
  prefix: string;
}

export function mintFeedSecret(): MintedFeedSecret {
  const secret = `${FEED_SECRET_PREFIX}${randomToken(32)}`;
  return { secret, hash: sha256Hex(secret), prefix: secret.slice(0, 12) };
}
