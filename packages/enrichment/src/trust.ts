import { isRule, isVerifiedPublisher } from './rules';
import type { FindingDraft, PublisherContext } from './types';

export type TrustLevel = 'verified' | 'established' | 'unknown' | 'suspicious';
export interface PublisherTrust {
  publisher: string | null;
  verified: boolean;
  level: TrustLevel;
  score: number;
  factors: Array<{ factor: string; delta: number; detail?: string }>;
}

export function publisherTrust(
  publisher: string | null,
  seen: { context: PublisherContext; findings: readonly FindingDraft[]; now: string },
): PublisherTrust {
  const { context: ctx, findings, now } = seen;
  const factors: PublisherTrust['factors'] = [];
  const verified = isVerifiedPublisher(publisher);
  let score = 30;
  factors.push({ factor: 'baseline', delta: 30 });
  if (verified) {
    score += 50;
    factors.push({ factor: 'verified_publisher_list', delta: 50, detail: publisher ?? undefined });
  }
  const orgs = Math.max(0, Math.floor(ctx.org_count || 0));
  const orgDelta = Math.min(15, orgs * 3);
  if (orgDelta) {
    score += orgDelta;
    factors.push({ factor: 'org_count', delta: orgDelta, detail: String(orgs) });
  }
  const t0 = Date.parse(ctx.first_seen);
  const t1 = Date.parse(now);
  const ageDays = Number.isFinite(t0) && Number.isFinite(t1) ? Math.max(0, Math.floor((t1 - t0) / 86_400_000)) : 0;
  const ageDelta = ageDays >= 365 ? 10 : ageDays >= 90 ? 6 : ageDays >= 30 ? 3 : ageDays < 7 ? -5 : 0;
  if (ageDelta) {
    score += ageDelta;
    factors.push({ factor: 'age_days', delta: ageDelta, detail: String(ageDays) });
  }
  const susp = findings.filter((f) => isRule(f, 'R15', 'R14', 'R16'));
  for (const f of susp) {
    score -= 30;
    factors.push({
      factor: isRule(f, 'R15') ? 'typosquat_name' : isRule(f, 'R14') ? 'unverifiable_namespace' : 'poisoned_tools',
      delta: -30,
    });
  }
  if (!publisher) {
    score -= 10;
    factors.push({ factor: 'no_publisher', delta: -10 });
  }
  score = Math.max(0, Math.min(100, score));
  const level: TrustLevel =
    susp.length > 0 && !verified
      ? 'suspicious'
      : verified
        ? 'verified'
        : orgs >= 3 && ageDays >= 90
          ? 'established'
          : 'unknown';
  return { publisher, verified, level, score, factors };
}
