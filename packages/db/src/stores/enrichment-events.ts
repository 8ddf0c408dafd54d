import {
  ASSET_TYPE_VALUES,
  ENRICHMENT_STATUSES,
  RISK_SEVERITIES,
  type EventExtra,
  type EventObject,
  type EventTypeName,
} from '@risk/contracts';
import type { EnrichmentResult } from '@risk/enrichment';
import { summarizeAiBom, summarizeFindings, SUMMARY_NAME_CAP, type KeyedFinding } from '../history/change-summary';
import { ID_PREFIXES, newId } from '../ids';
import { findingKeys } from './history-store';
import { toolSetChange } from './tool-baselines-store';

/**
 * The events of one enrichment write (docs/webhooks.md catalogue): asset.enriched always; asset.risk_changed when a
 * previous score or severity changed; asset.aibom_changed when a new AI-BOM version follows an earlier one;
 * asset.tools_changed when the asset's tool set differs from the previous enrichment's (docs/drift.md). The last
 * three carry a short summary of the change (../history/change-summary.ts), built from shared, redacted data only.
 * Asset events go to the orgs that observed the asset, in the write's mode (FAN_OUT_EVENTS_SQL).
 */

export interface EventRow {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** What the lock statement read of the asset before this write. */
export interface PreviousState {
  score: number | null;
  severity: string | null;
  bom_version: number | null;
  /** the findings this write replaces (rows) */
  findings: Array<{
    id: string;
    rule_id: string;
    title: string;
    severity: string;
    cve_ids: string[];
    threat_ids: string[];
  }> | null;
  /** the previous AI-BOM's components and lineage, read only when the new content differs */
  components: Array<Record<string, unknown>> | null;
  lineage: unknown;
  /** the current tool set before this write (name → definition hash) */
  tools: Record<string, string> | null;
  has_tool_baseline: boolean;
}

export interface EventsInput {
  fingerprint: string;
  asset_type: string;
  status: string;
  result: EnrichmentResult;
  bomId: string;
  bomVersion: number;
  newBom: boolean;
  /** the ids of the finding rows this write inserts, in result order */
  findingIds: string[];
  previous: PreviousState;
  now: Date;
}

/** The lock statement's columns as PreviousState (the score and severity come from the job read). */
export function previousState(row: {
  bom_version: number | null;
  prev_findings: PreviousState['findings'];
  prev_components: PreviousState['components'];
  prev_lineage: unknown;
  prev_tools: PreviousState['tools'];
  has_tool_baseline: boolean;
}): Omit<PreviousState, 'score' | 'severity'> {
  return {
    bom_version: row.bom_version,
    findings: row.prev_findings,
    components: row.prev_components,
    lineage: row.prev_lineage,
    tools: row.prev_tools,
    has_tool_baseline: row.has_tool_baseline,
  };
}

/** The events an enrichment write may emit; all carry the asset's enrichment summary as `object`. */
type AssetEventType = Extract<
  EventTypeName,
  'asset.enriched' | 'asset.risk_changed' | 'asset.aibom_changed' | 'asset.tools_changed'
>;

/** A text column's value as one of the catalogue's values: anything else would contradict the document, so it throws. */
function oneOf<V extends string>(values: readonly V[], value: string, column: string): V {
  const found = values.find((v) => v === value);
  if (found === undefined)
    throw new Error(`enrichment event: ${column} ${JSON.stringify(value)} is not in the catalogue`);
  return found;
}

const DRIFT_RULES = new Set(['R30', 'R31', 'R32', 'R33']);

export function enrichmentEvents(input: EventsInput): EventRow[] {
  const { result, previous: prev } = input;
  // typed by the catalogue (@risk/contracts EventObject/EventExtra): these rows are written with plain SQL
  const rendered: EventObject<AssetEventType> = {
    object: 'asset',
    fingerprint: input.fingerprint,
    asset_type: oneOf(ASSET_TYPE_VALUES, input.asset_type, 'asset_type'),
    enrichment_status: oneOf(ENRICHMENT_STATUSES, input.status, 'enrichment_status'),
    intrinsic_risk_score: result.intrinsic_risk_score,
    intrinsic_risk_severity: result.intrinsic_risk_severity,
    publisher: result.publisher,
    aibom: input.bomId,
    bom_version: input.bomVersion,
    enriched_at: Math.floor(input.now.getTime() / 1000),
  };
  const event = <T extends AssetEventType>(type: T, extra: EventExtra<T>): EventRow => ({
    id: newId(ID_PREFIXES.event),
    type,
    data: { object: rendered, ...extra },
  });
  const events = [event('asset.enriched', {})];

  const keys = findingKeys(result.findings);
  const after: KeyedFinding[] = result.findings.map((f, i) => ({
    id: input.findingIds[i]!,
    key: keys[i]!,
    rule_id: f.rule_id,
    severity: f.severity,
  }));
  const prevRows = prev.findings ?? [];
  const prevKeys = findingKeys(prevRows);
  const before: KeyedFinding[] = prevRows.map((f, i) => ({
    id: f.id,
    key: prevKeys[i]!,
    rule_id: f.rule_id,
    severity: oneOf(RISK_SEVERITIES, f.severity, 'findings.severity'),
  }));
  const aibom =
    input.newBom && prev.bom_version !== null && prev.components
      ? summarizeAiBom({
          from: { version: prev.bom_version, components: prev.components, lineage: prev.lineage },
          to: { version: input.bomVersion, components: result.aibom.components, lineage: result.aibom.lineage },
        })
      : null;
  const prevSeverity = prev.severity === null ? null : oneOf(RISK_SEVERITIES, prev.severity, 'intrinsic_risk_severity');
  const summary = {
    risk: {
      score: { from: prev.score, to: result.intrinsic_risk_score },
      severity: { from: prevSeverity, to: result.intrinsic_risk_severity },
    },
    bom_version: { from: prev.bom_version, to: input.bomVersion },
    aibom,
    findings: summarizeFindings(before, after),
  };

  const scoreChanged = prev.score !== result.intrinsic_risk_score;
  const severityChanged = prev.severity !== result.intrinsic_risk_severity;
  if (prev.score !== null && (scoreChanged || severityChanged)) {
    events.push(
      event('asset.risk_changed', {
        previous_attributes: { intrinsic_risk_score: prev.score, intrinsic_risk_severity: prevSeverity },
        summary,
      }),
    );
  }
  if (aibom) events.push(event('asset.aibom_changed', { summary }));

  const tools = toolSetChange(prev.tools, result.tools);
  if (prev.has_tool_baseline && (tools.added.length || tools.removed.length || tools.changed.length)) {
    const drift = after.filter((f) => DRIFT_RULES.has(f.rule_id));
    events.push(
      event('asset.tools_changed', {
        tools: {
          added_count: tools.added.length,
          removed_count: tools.removed.length,
          changed_count: tools.changed.length,
          added: tools.added.slice(0, SUMMARY_NAME_CAP),
          removed: tools.removed.slice(0, SUMMARY_NAME_CAP),
          changed: tools.changed.slice(0, SUMMARY_NAME_CAP),
          // the drift findings now on the asset (their evidence holds each tool's before/after)
          drift_findings: drift.map(({ id, rule_id, severity }) => ({ id, rule_id, severity })),
        },
        summary,
      }),
    );
  }
  return events;
}
