import { decideEnrichment, observationSetDigest, type PreviousAssetState } from './enrichment-decision';

const now = new Date('2026-11-23T12:00:00Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
/** an asset enriched for its current observation set, where org_a's latest observation has digest X */
const enriched = (over: Partial<PreviousAssetState> = {}): PreviousAssetState => ({
  enrichment_status: 'enriched',
  latest_digest: 'set-1',
  enriched_digest: 'set-1',
  enriched_at: daysAgo(1),
  org_digest: 'X',
  org_last_seen: daysAgo(1),
  ...over,
});

describe('observation-set digest (docs/security.md "Modes and shared observations")', () => {
  it('stays put when the org resends the observation it already has', () => {
    expect(observationSetDigest(enriched(), { orgId: 'org_a', contentDigest: 'X', now, observationTtlDays: 90 })).toBe(
      'set-1',
    );
    expect(decideEnrichment(enriched(), { digest: 'set-1', now, ttlDays: 7 })).toMatchObject({
      status: 'skipped',
      reason: 'up_to_date',
    });
  });

  it('changes when an org changes its observation, so an enriched asset is never skipped (A:X,B:Y then A:Y)', () => {
    const next = observationSetDigest(enriched(), { orgId: 'org_a', contentDigest: 'Y', now, observationTtlDays: 90 });
    expect(next).not.toBe('set-1');
    expect(decideEnrichment(enriched(), { digest: next, now, ttlDays: 7 })).toMatchObject({
      status: 'queued',
      reason: 'content_changed',
    });
  });

  it("changes on another org's first observation, even with content equal to an existing one", () => {
    const first = enriched({ org_digest: null, org_last_seen: null });
    expect(observationSetDigest(first, { orgId: 'org_b', contentDigest: 'X', now, observationTtlDays: 90 })).not.toBe(
      'set-1',
    );
  });

  it('changes when an expired observation is sent again (it counts again)', () => {
    const expired = enriched({ org_last_seen: daysAgo(91) });
    expect(observationSetDigest(expired, { orgId: 'org_a', contentDigest: 'X', now, observationTtlDays: 90 })).not.toBe(
      'set-1',
    );
    expect(
      observationSetDigest(enriched({ org_last_seen: daysAgo(89) }), {
        orgId: 'org_a',
        contentDigest: 'X',
        now,
        observationTtlDays: 90,
      }),
    ).toBe('set-1');
  });

  it('depends on the org: two orgs sending the same content from the same set get different digests', () => {
    const prev = enriched({ org_digest: null, org_last_seen: null });
    expect(observationSetDigest(prev, { orgId: 'org_b', contentDigest: 'Y', now, observationTtlDays: 90 })).not.toBe(
      observationSetDigest(prev, { orgId: 'org_c', contentDigest: 'Y', now, observationTtlDays: 90 }),
    );
  });
});
