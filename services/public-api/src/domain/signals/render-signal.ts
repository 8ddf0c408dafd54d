import type { Signal } from '@risk/contracts';
import type { SignalInsert } from '@risk/db';

/** A stored signal: the columns @risk/db inserts (without the request id) and the creation time. */
export type SignalRow = Omit<SignalInsert, 'request_id'> & { created: Date };

export const unixSeconds = (d: Date): number => Math.floor(d.getTime() / 1000);

export function renderSignal(row: SignalRow): Signal {
  return {
    id: row.id,
    object: 'signal',
    fingerprint: row.fingerprint,
    asset_type: row.asset_type as Signal['asset_type'],
    org_id: row.org_id,
    observed_at: unixSeconds(row.observed_at),
    name: row.name,
    version: row.version,
    source_url: row.source_url,
    raw_manifest: row.raw_manifest,
    metadata: (row.metadata ?? null) as Signal['metadata'],
    artifacts: (row.artifacts ?? null) as Signal['artifacts'],
    content_digest: row.content_digest,
    livemode: row.livemode,
    created: unixSeconds(row.created),
  };
}
