import type { FindingView } from '../triage/effective';
import type { FindingRow } from '../assets/render';

/**
 * What a VEX document says about one finding (docs/triage.md "VEX export"), format-neutral: the
 * vulnerability it names (each CVE id of the finding, else the rule id: AI-asset risks mostly have no
 * CVE) and the org's triage of it. Both renderers (openvex.ts, cyclonedx.ts) map from this.
 */
export interface VexEntry {
  vulnerability: string;
  is_cve: boolean;
  finding: FindingRow;
  /** the org's state; `open` when never triaged or returned to open */
  state: string;
  justification: string | null;
  comment: string | null;
  expires_at: Date | null;
  updated: Date | null;
  suppressed_by: string[];
}

export function vexEntries(views: Array<FindingView<FindingRow>>): VexEntry[] {
  return views.flatMap((v) => {
    const names = v.finding.cve_ids.length ? v.finding.cve_ids : [v.finding.rule_id];
    return names.map((name) => ({
      vulnerability: name,
      is_cve: v.finding.cve_ids.length > 0,
      finding: v.finding,
      state: v.triage?.state ?? 'open',
      justification: v.triage?.justification ?? null,
      comment: v.triage?.comment ?? null,
      expires_at: v.triage?.expires_at ?? null,
      updated: v.triage?.updated ?? null,
      suppressed_by: v.suppressed_by,
    }));
  });
}

/** Drops entries that would render identically (both formats want unique statements). */
export function uniqueBy<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => {
    const k = key(t);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
