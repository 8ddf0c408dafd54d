// Policy-to-firewall sync status in words (docs/firewalls.md "Sync"): what a row of the policies list and the
// firewall page say about the assignments.
export interface SyncLike {
  sync_status: 'pending' | 'synced' | 'failed' | 'removing' | 'removal_failed';
  target_version: number;
  synced_version: number | null;
}

/** still moving: the page polls while an assignment is in one of these */
export const IN_FLIGHT = new Set<SyncLike['sync_status']>(['pending', 'removing']);

export function inFlight(assignments: readonly SyncLike[]): boolean {
  return assignments.some((a) => IN_FLIGHT.has(a.sync_status));
}

/** "none", or counts per status in a fixed order: "2 synced, 1 pending" */
export function syncSummary(assignments: readonly SyncLike[]): string {
  if (assignments.length === 0) return 'none';
  const order: Array<SyncLike['sync_status']> = ['synced', 'pending', 'removing', 'failed', 'removal_failed'];
  const counts = new Map<string, number>();
  for (const a of assignments) counts.set(a.sync_status, (counts.get(a.sync_status) ?? 0) + 1);
  return order
    .filter((s) => counts.has(s))
    .map((s) => `${counts.get(s)} ${s.replace('_', ' ')}`)
    .join(', ');
}

/** "synced (version 3)", "pending: version 2 → 3", "failed at version 3" */
export function syncLabel(a: SyncLike): string {
  switch (a.sync_status) {
    case 'synced':
      return `synced (version ${a.synced_version ?? a.target_version})`;
    case 'pending':
      return a.synced_version === null
        ? `pending: first push of version ${a.target_version}`
        : `pending: version ${a.synced_version} → ${a.target_version}`;
    case 'removing':
      return 'removing from the firewall';
    case 'failed':
      return `failed to push version ${a.target_version}`;
    case 'removal_failed':
      return 'removal failed: objects may remain on the firewall';
  }
}
