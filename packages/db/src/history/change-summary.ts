import type { RiskSeverity } from '@risk/contracts';
import { diffComponents, diffLineage, diffPrimaryLicense, type ComponentRef, type LineageDiff } from './aibom-diff';

/**
 * The short summary of an enrichment's change that asset.risk_changed, asset.aibom_changed and asset.tools_changed
 * events carry (docs/history.md "Change events", docs/drift.md). Built only from what every org observing the asset
 * may read anyway — the shared AI-BOM versions, findings and tool fingerprints, all redacted by the engine — never
 * from a signal, its metadata or which org sent it (docs/security.md "Modes and shared observations"). Pure.
 */

/** Names listed per kind of change; the counts are always complete. */
export const SUMMARY_NAME_CAP = 10;
/** Findings listed per direction. */
export const SUMMARY_FINDING_CAP = 20;

type Component = Record<string, unknown>;
interface Change<T> {
  from: T;
  to: T;
}

/** A finding as the summary identifies it: its row id (new ids for added ones, the old ids for removed ones). */
export interface KeyedFinding {
  id: string;
  key: string;
  rule_id: string;
  severity: RiskSeverity;
}
export interface SummaryFinding {
  id: string;
  rule_id: string;
  severity: RiskSeverity;
}

export interface FindingsSummary {
  added_count: number;
  removed_count: number;
  added: SummaryFinding[];
  removed: SummaryFinding[];
}

export interface ComponentsSummary {
  added_count: number;
  removed_count: number;
  changed_count: number;
  added: ComponentRef[];
  removed: ComponentRef[];
  /** the fields that changed per component (version, license, hashes, supplier) */
  changed: Array<{ type: string; name: string; fields: string[] }>;
}

export interface AiBomSummary {
  from_version: number;
  to_version: number;
  components: ComponentsSummary;
  primary_license: Change<string | null> | null;
  lineage: LineageDiff;
}

export interface ChangeSummary {
  risk: { score: Change<number | null>; severity: Change<RiskSeverity | null> };
  bom_version: Change<number | null>;
  /** null when the enrichment kept the AI-BOM version */
  aibom: AiBomSummary | null;
  findings: FindingsSummary;
}

const plain = (f: KeyedFinding): SummaryFinding => ({ id: f.id, rule_id: f.rule_id, severity: f.severity });

/** Findings added and removed by identity key (finding ids change at every enrichment, docs/history.md). */
export function summarizeFindings(before: readonly KeyedFinding[], after: readonly KeyedFinding[]): FindingsSummary {
  const keysBefore = new Set(before.map((f) => f.key));
  const keysAfter = new Set(after.map((f) => f.key));
  const added = after.filter((f) => !keysBefore.has(f.key));
  const removed = before.filter((f) => !keysAfter.has(f.key));
  return {
    added_count: added.length,
    removed_count: removed.length,
    added: added.slice(0, SUMMARY_FINDING_CAP).map(plain),
    removed: removed.slice(0, SUMMARY_FINDING_CAP).map(plain),
  };
}

/** Two AI-BOM versions, as the diff route compares them, cut to counts and the first names. */
export function summarizeAiBom(input: {
  from: { version: number; components: Component[]; lineage: unknown };
  to: { version: number; components: Component[]; lineage: unknown };
}): AiBomSummary {
  const { from, to } = input;
  const c = diffComponents(from.components, to.components);
  return {
    from_version: from.version,
    to_version: to.version,
    components: {
      added_count: c.added.length,
      removed_count: c.removed.length,
      changed_count: c.changed.length,
      added: c.added.slice(0, SUMMARY_NAME_CAP),
      removed: c.removed.slice(0, SUMMARY_NAME_CAP),
      changed: c.changed
        .slice(0, SUMMARY_NAME_CAP)
        .map((x) => ({ type: x.type, name: x.name, fields: Object.keys(x.changes) })),
    },
    primary_license: diffPrimaryLicense(from.components, to.components),
    lineage: diffLineage(from.lineage, to.lineage),
  };
}
