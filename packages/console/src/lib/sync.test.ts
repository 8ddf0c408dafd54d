import { inFlight, syncLabel, syncSummary, type SyncLike } from './sync';

const a = (sync_status: SyncLike['sync_status'], target_version = 3, synced_version: number | null = 2): SyncLike => ({
  sync_status,
  target_version,
  synced_version,
});

describe('sync status in words', () => {
  it('summarises counts in a fixed order', () => {
    expect(syncSummary([])).toBe('none');
    expect(syncSummary([a('pending'), a('synced'), a('synced'), a('removal_failed')])).toBe(
      '2 synced, 1 pending, 1 removal failed',
    );
  });
  it('labels each status with its versions', () => {
    expect(syncLabel(a('synced', 3, 3))).toBe('synced (version 3)');
    expect(syncLabel(a('pending', 3, null))).toBe('pending: first push of version 3');
    expect(syncLabel(a('pending', 3, 2))).toBe('pending: version 2 → 3');
    expect(syncLabel(a('failed'))).toBe('failed to push version 3');
  });
  it('is in flight while pending or removing', () => {
    expect(inFlight([a('synced'), a('failed')])).toBe(false);
    expect(inFlight([a('synced'), a('removing')])).toBe(true);
    expect(inFlight([a('pending')])).toBe(true);
  });
});
