// The three cells that show one policy-to-firewall assignment's sync state (docs/firewalls.md "Sync"), on the
// policy page (one row per firewall) and the firewall page (one row per policy).
import type { Policy } from '../api/types';
import { syncLabel } from '../lib/sync';
import { RelativeTime } from './time';

type Assignment = Policy['assignments'][number];

export const SYNC_COLUMNS = ['Sync status', 'Last synced', 'Last error / warnings'] as const;

export function SyncCells({ a }: { a: Assignment }) {
  return (
    <>
      <td className={`sync sync-${a.sync_status}`}>{syncLabel(a)}</td>
      <td>
        <RelativeTime value={a.last_synced_at} />
      </td>
      <td>{[a.last_error, ...a.warnings].filter(Boolean).join('; ') || '—'}</td>
    </>
  );
}
