// Feed tokens and block-list entries → API objects (the secret appears only where a use case adds it).
import type { FeedBlockEntry, FeedToken } from '@risk/db';

export function serializeFeedToken(t: FeedToken) {
  return {
    object: 'feed_token' as const,
    id: t.id,
    name: t.name,
    token_prefix: t.token_prefix,
    status: t.revoked_at ? ('revoked' as const) : ('active' as const),
    firewall_id: t.firewall_id,
    previous_expires_at: t.previous_expires_at?.toISOString() ?? null,
    revoked_at: t.revoked_at?.toISOString() ?? null,
    last_used_at: t.last_used_at?.toISOString() ?? null,
    created: t.created.toISOString(),
  };
}

export function serializeBlockEntry(e: FeedBlockEntry) {
  return {
    object: 'feed_block_entry' as const,
    id: e.id,
    kind: e.kind as 'domain' | 'url',
    value: e.value,
    note: e.note,
    created: e.created.toISOString(),
  };
}
