import { randomUUID } from 'node:crypto';
import { newId } from '@risk/db';
import { severityForScore } from '@risk/contracts';
import type { Harness } from './harness';

// Rows for the overview tests (overview.test.ts), written straight to the tables the
// overview reads: exact scores, statuses, findings and history entries that an enrichment would not give on demand.

export interface SeedFinding {
  rule_id: string;
  severity?: 'critical' | 'high' | 'medium' | 'low' | 'informational';
  attack_techniques?: string[];
  threat_ids?: string[];
}

export interface SeedAsset {
  fingerprint: string;
  score: number | null;
  status?: 'pending' | 'enriched' | 'failed' | 'stale';
  livemode?: boolean;
  orgs?: string[];
  findings?: SeedFinding[];
}

/** Writes one asset observed by `orgs`, with its findings; returns the finding ids in order. */
export async function seedAsset(h: Harness, a: SeedAsset): Promise<string[]> {
  const { prisma } = h.ctx.db;
  const livemode = a.livemode ?? true;
  const now = new Date();
  await prisma.asset.create({
    data: {
      livemode,
      fingerprint: a.fingerprint,
      asset_type: 'model',
      name: a.fingerprint,
      enrichment_status: a.status ?? (a.score === null ? 'pending' : 'enriched'),
      intrinsic_risk_score: a.score,
      intrinsic_risk_severity: a.score === null ? null : severityForScore(a.score),
      latest_signal_id: newId('signal'),
      latest_digest: randomUUID(),
      first_seen: now,
      last_seen: now,
      orgs: { create: (a.orgs ?? []).map((org_id) => ({ org_id })) },
    },
  });
  const findings = (a.findings ?? []).map((f, i) => ({
    id: newId('finding'),
    livemode,
    fingerprint: a.fingerprint,
    rule_id: f.rule_id,
    title: `${f.rule_id} finding ${i}`,
    description: 'seeded',
    severity: f.severity ?? 'high',
    category: 'test',
    confidence: 1,
    evidence: {},
    capabilities: [],
    attack_techniques: f.attack_techniques ?? [],
    cve_ids: [],
    threat_ids: f.threat_ids ?? [],
    score_contribution: 0,
    enrichment_digest: 'seed',
  }));
  if (findings.length) await prisma.finding.createMany({ data: findings });
  return findings.map((f) => f.id);
}

/** History entries of an asset: `from` null is the baseline entry (no previous score). */
export async function seedHistory(
  h: Harness,
  fingerprint: string,
  entries: Array<{ at: number; from: number | null; to: number }>,
  livemode = true,
): Promise<void> {
  await h.ctx.db.prisma.assetHistory.createMany({
    data: entries.map((e) => ({
      id: newId('assetHistory'),
      livemode,
      fingerprint,
      enrichment_digest: randomUUID(),
      intrinsic_risk_score: e.to,
      intrinsic_risk_severity: severityForScore(e.to),
      previous_risk_score: e.from,
      previous_risk_severity: e.from === null ? null : severityForScore(e.from),
      findings: [],
      findings_added: [],
      findings_removed: [],
      findings_changed: [],
      created: new Date(e.at),
    })),
  });
}
