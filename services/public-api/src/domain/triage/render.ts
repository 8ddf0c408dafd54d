import type { FindingTriage, SeverityOverride, Suppression, TriageChange } from '@risk/contracts';
import { unixSeconds } from '../signals/render-signal';
import type { SuppressionRow, TriageRow } from './effective';

// Rows become API objects here (docs/architecture.md "Routes"): triage, its history, suppressions, overrides.

export function renderTriage(row: TriageRow): FindingTriage {
  return {
    object: 'finding_triage',
    finding_key: row.finding_key,
    state: row.state as FindingTriage['state'],
    justification: row.justification as FindingTriage['justification'],
    comment: row.comment,
    expires_at: row.expires_at ? unixSeconds(row.expires_at) : null,
    set_by: row.set_by,
    created: unixSeconds(row.created),
    updated: unixSeconds(row.updated),
  };
}

export function renderTriageChange(row: {
  id: string;
  from_state: string;
  to_state: string;
  justification: string | null;
  comment: string | null;
  expires_at: Date | null;
  set_by: string;
  created: Date;
}): TriageChange {
  return {
    id: row.id,
    object: 'finding_triage_change',
    from_state: row.from_state as TriageChange['from_state'],
    to_state: row.to_state as TriageChange['to_state'],
    justification: row.justification as TriageChange['justification'],
    comment: row.comment,
    expires_at: row.expires_at ? unixSeconds(row.expires_at) : null,
    set_by: row.set_by,
    created: unixSeconds(row.created),
  };
}

export function renderSuppression(
  row: SuppressionRow & { reason: string; created_by: string; created: Date },
  now = new Date(),
): Suppression {
  return {
    id: row.id,
    object: 'suppression',
    rule_id: row.rule_id,
    cve_id: row.cve_id,
    attack_technique: row.attack_technique,
    fingerprint_glob: row.fingerprint_glob,
    asset_type: row.asset_type as Suppression['asset_type'],
    reason: row.reason,
    expires_at: row.expires_at ? unixSeconds(row.expires_at) : null,
    active: !row.expires_at || row.expires_at > now,
    created_by: row.created_by,
    created: unixSeconds(row.created),
  };
}

export function renderSeverityOverride(row: {
  rule_id: string;
  severity: string;
  reason: string | null;
  set_by: string;
  created: Date;
  updated: Date;
}): SeverityOverride {
  return {
    object: 'severity_override',
    rule_id: row.rule_id,
    severity: row.severity as SeverityOverride['severity'],
    reason: row.reason,
    set_by: row.set_by,
    created: unixSeconds(row.created),
    updated: unixSeconds(row.updated),
  };
}
