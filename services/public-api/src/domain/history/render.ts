import type { AiBomVersion, AssetHistoryEntry, FindingRef } from '@risk/contracts';
import type { AiBomVersionRow, Prisma } from '@risk/db';

/** Rows of asset_history and aiboms become API objects here (docs/history.md). */

export type HistoryRow = Prisma.AssetHistoryGetPayload<Record<string, never>>;

const unix = (d: Date) => Math.floor(d.getTime() / 1000);
type Severity = FindingRef['severity'];

function refs(value: unknown): FindingRef[] {
  return (value as Array<{ rule_id: string; title: string; severity: Severity }>).map((f) => ({
    rule_id: f.rule_id,
    title: f.title,
    severity: f.severity,
  }));
}

export function renderHistoryEntry(row: HistoryRow): AssetHistoryEntry {
  return {
    id: row.id,
    object: 'asset_history_entry',
    fingerprint: row.fingerprint,
    intrinsic_risk_score: row.intrinsic_risk_score,
    intrinsic_risk_severity: row.intrinsic_risk_severity as Severity | null,
    previous_risk_score: row.previous_risk_score,
    previous_risk_severity: row.previous_risk_severity as Severity | null,
    bom_version: row.bom_version,
    findings_added: refs(row.findings_added),
    findings_removed: refs(row.findings_removed),
    findings_changed: (
      row.findings_changed as Array<{ rule_id: string; title: string; severity: Severity; previous_severity: Severity }>
    ).map((f) => ({
      rule_id: f.rule_id,
      title: f.title,
      severity: f.severity,
      previous_severity: f.previous_severity,
    })),
    created: unix(row.created),
  };
}

export function renderAiBomVersion(row: AiBomVersionRow, currentId: string | null): AiBomVersion {
  return {
    id: row.id,
    object: 'aibom_version',
    fingerprint: row.fingerprint,
    bom_version: row.bom_version,
    content_hash: row.content_hash,
    component_count: row.component_count,
    current: row.id === currentId,
    created: unix(row.created),
  };
}
