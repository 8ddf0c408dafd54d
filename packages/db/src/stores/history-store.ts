import { createHash } from 'node:crypto';
import type { StoredFinding } from './enrichment-rows';

/**
 * Asset history (docs/history.md): the statement the enrichment writer runs in its transaction to record
 * an enrichment that changed the asset, and the finding snapshot it diffs. One statement per write
 * (no query per finding): the diff against the previous entry, the conditional insert and the cap are
 * set operations on the snapshot's jsonb.
 */

/** Entries kept per asset (newest first); older ones are deleted by the write that adds one. */
export const ASSET_HISTORY_CAP = 100;

/** A finding as history remembers it: enough to say added / removed / severity changed, nothing else. */
export interface FindingSnapshot {
  /** stable across enrichments (finding ids are not): rule, title, CVE and threat ids */
  key: string;
  rule_id: string;
  title: string;
  severity: string;
}

/**
 * The snapshot of a result's findings, sorted by key. Two findings with the same identity (the same rule
 * on two components with one title) get `#2`, `#3` … so neither hides the other.
 */
export function findingSnapshot(findings: readonly StoredFinding[]): FindingSnapshot[] {
  const keys = findingKeys(findings);
  const out = findings.map((f, i) => ({ key: keys[i]!, rule_id: f.rule_id, title: f.title, severity: f.severity }));
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The identity key of each finding, in input order (the snapshot's `key`; change events use it too, and per-org
 * triage keys on it: docs/triage.md). `#2`, `#3` … for repeats in input order.
 */
export function findingKeys(
  findings: ReadonlyArray<{
    rule_id: string;
    title: string;
    cve_ids: readonly string[];
    threat_ids: readonly string[];
  }>,
): string[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const base = createHash('sha256')
      .update([f.rule_id, f.title, [...f.cve_ids].sort().join(','), [...f.threat_ids].sort().join(',')].join('\0'))
      .digest('hex')
      .slice(0, 24);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}#${n}`;
  });
}

// $1 id, $2 livemode, $3 fingerprint, $4 digest, $5 now, $6 score, $7 severity, $8 bom_version,
// $9 findings snapshot (jsonb array), $10 cap. Runs BEFORE ew_write in the same transaction. An entry is
// inserted when there is no previous one (the baseline) or the score, severity, AI-BOM version or finding
// set differs from the previous entry; the cap then deletes the entries beyond the newest $10.
export const HISTORY_SQL = `
  WITH prev AS (
    SELECT intrinsic_risk_score, intrinsic_risk_severity, bom_version, findings FROM asset_history
     WHERE livemode = $2 AND fingerprint = $3 ORDER BY id DESC LIMIT 1
  ),
  old AS (SELECT o FROM prev, jsonb_array_elements(prev.findings) o),
  new AS (SELECT n FROM jsonb_array_elements($9::jsonb) n),
  diff AS (
    SELECT
      COALESCE((SELECT jsonb_agg(n - 'key' ORDER BY n->>'key') FROM new
                 WHERE NOT EXISTS (SELECT 1 FROM old WHERE o->>'key' = n->>'key')), '[]'::jsonb) AS added,
      COALESCE((SELECT jsonb_agg(o - 'key' ORDER BY o->>'key') FROM old
                 WHERE NOT EXISTS (SELECT 1 FROM new WHERE n->>'key' = o->>'key')), '[]'::jsonb) AS removed,
      COALESCE((SELECT jsonb_agg((n - 'key') || jsonb_build_object('previous_severity', o->>'severity') ORDER BY n->>'key')
                  FROM new JOIN old ON o->>'key' = n->>'key' AND o->>'severity' <> n->>'severity'), '[]'::jsonb) AS changed
  ),
  ins AS (
    INSERT INTO asset_history (id, livemode, fingerprint, enrichment_digest, intrinsic_risk_score, intrinsic_risk_severity,
      previous_risk_score, previous_risk_severity, bom_version, findings, findings_added, findings_removed,
      findings_changed, created)
    SELECT $1, $2, $3, $4, $6, $7, p.intrinsic_risk_score, p.intrinsic_risk_severity, $8, $9, d.added, d.removed, d.changed, $5
      FROM diff d LEFT JOIN prev p ON true
     WHERE NOT EXISTS (SELECT 1 FROM prev)
        OR p.intrinsic_risk_score IS DISTINCT FROM $6 OR p.intrinsic_risk_severity IS DISTINCT FROM $7
        OR p.bom_version IS DISTINCT FROM $8
        OR d.added <> '[]'::jsonb OR d.removed <> '[]'::jsonb OR d.changed <> '[]'::jsonb
    RETURNING id
  )
  DELETE FROM asset_history WHERE id IN (
    SELECT id FROM asset_history WHERE livemode = $2 AND fingerprint = $3 ORDER BY id DESC OFFSET $10 - 1
  ) AND EXISTS (SELECT 1 FROM ins)`;

export const HISTORY_STATEMENT_TYPES = [
  'text',
  'boolean',
  'text',
  'text',
  'timestamptz',
  'int',
  'text',
  'int',
  'jsonb',
  'int',
];
