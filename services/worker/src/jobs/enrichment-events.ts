import {
  ASSET_TYPE_VALUES,
  ENRICHMENT_STATUSES,
  RISK_SEVERITIES,
  type EventExtra,
  type EventObject,
  type EventTypeName,
} from '@risk/contracts';
import {
  findingKeys,
  ID_PREFIXES,
  newId,
  summarizeAiBom,
  summarizeFindings,
  SUMMARY_NAME_CAP,
  type EnrichmentEventRow,
  type EnrichmentEventsInput,
  type KeyedFinding,
} from '@risk/db';
import type { EnrichmentResult, ToolFingerprint } from '@risk/enrichment';

/**
 * The events of one enrichment write (docs/webhooks.md catalogue): asset.enriched always; asset.risk_changed when a
 * previous score or severity changed; asset.aibom_changed when a new AI-BOM version follows an earlier one;
 * asset.tools_changed when the asset's tool set differs from the previous enrichment's (docs/drift.md). The last
 * three carry a short summary of the change (@risk/db history/change-summary.ts), built from shared, redacted data
 * only. Asset events go to the orgs that observed the asset, in the write's mode (FAN_OUT_EVENTS_SQL). Decided here,
 * in the worker, from the state the enrichment store's lock statement read; the store only inserts the rows it is
 * given (docs/data-access.md "Stores").
 */

type EventRow = EnrichmentEventRow;
type EventsInput = EnrichmentEventsInput<EnrichmentResult>;

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

/**
 * What changed since the previous enrichment: the findings keyed before and after, the previous severity, the AI-BOM
 * change (when a new version follows an earlier one) and the summary the change events carry.
 */
function changeOf(input: EventsInput) {
  const { result, previous: prev } = input;
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
  return { after, prevSeverity, aibom, summary };
}

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

  const { after, prevSeverity, aibom, summary } = changeOf(input);

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

/** How the asset's tool set changed since the previous enrichment (names, capped by the caller): added and
 * changed in the order of the new list, removed sorted. */
export interface ToolSetChange {
  added: string[];
  removed: string[];
  changed: string[];
}

export function toolSetChange(
  previous: Record<string, string> | null,
  next: readonly ToolFingerprint[],
): ToolSetChange {
  const before = new Map(Object.entries(previous ?? {}));
  const after = new Map(next.map((t) => [t.name, t.hash]));
  return {
    added: [...after.keys()].filter((n) => !before.has(n)),
    removed: [...before.keys()].filter((n) => !after.has(n)).sort(),
    changed: [...after].filter(([n, h]) => before.has(n) && before.get(n) !== h).map(([n]) => n),
  };
}
