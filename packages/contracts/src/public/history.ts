// Asset history and AI-BOM diffs (docs/history.md). Like every asset route, these read
// the shared asset of the key's mode only (docs/security.md "Modes and shared observations").
import { z } from '../zod';
import { ZListQuery, zList } from '../common';
import { zQueryInt } from '../query';
import { RISK_SEVERITIES } from './assets';

const unix = (description = 'Unix seconds') => z.number().int().openapi({ description });

export const ZFindingRef = z
  .object({
    rule_id: z.string(),
    title: z.string(),
    severity: z.enum(RISK_SEVERITIES),
  })
  .openapi('FindingRef', { description: 'a finding as history remembers it (finding ids change every enrichment)' });
export type FindingRef = z.infer<typeof ZFindingRef>;

export const ZFindingSeverityChange = ZFindingRef.extend({
  previous_severity: z.enum(RISK_SEVERITIES),
}).openapi('FindingSeverityChange');

export const ZAssetHistoryEntry = z
  .object({
    id: z.string().openapi({ example: 'ahe_01jd3q5k8m0000000000000000' }),
    object: z.literal('asset_history_entry'),
    fingerprint: z.string(),
    intrinsic_risk_score: z.number().int().nullable(),
    intrinsic_risk_severity: z.enum(RISK_SEVERITIES).nullable(),
    previous_risk_score: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'the score of the entry before (null for the first entry)' }),
    previous_risk_severity: z.enum(RISK_SEVERITIES).nullable(),
    bom_version: z.number().int().nullable().openapi({ description: 'the AI-BOM version this enrichment produced' }),
    findings_added: z.array(ZFindingRef),
    findings_removed: z.array(ZFindingRef),
    findings_changed: z.array(ZFindingSeverityChange).openapi({ description: 'findings whose severity changed' }),
    created: unix('when the enrichment was written'),
  })
  .openapi('AssetHistoryEntry');
export type AssetHistoryEntry = z.infer<typeof ZAssetHistoryEntry>;
export const ZAssetHistoryList = zList(ZAssetHistoryEntry, 'AssetHistoryList');

export const ZAiBomVersion = z
  .object({
    id: z.string().openapi({ example: 'bom_01jd3q5k8m0000000000000000' }),
    object: z.literal('aibom_version'),
    fingerprint: z.string(),
    bom_version: z.number().int(),
    content_hash: z.string(),
    component_count: z.number().int(),
    current: z.boolean().openapi({ description: "true for the asset's current AI-BOM" }),
    created: unix(),
  })
  .openapi('AiBomVersion');
export type AiBomVersion = z.infer<typeof ZAiBomVersion>;
export const ZAiBomVersionList = zList(ZAiBomVersion, 'AiBomVersionList');

const zVersionParam = zQueryInt(1, 2_147_483_647).optional();
export const ZAiBomDiffQuery = z
  .object({
    from: zVersionParam.openapi({ description: 'bom_version to compare from; default: the version before `to`' }),
    to: zVersionParam.openapi({ description: "bom_version to compare to; default: the asset's current version" }),
  })
  .strict();

const ZChange = <T extends z.ZodType>(v: T) => z.object({ from: v, to: v });
const ZComponentRef = z.object({
  type: z.string(),
  name: z.string(),
  version: z.string().nullable(),
});
export const ZAiBomDiff = z
  .object({
    object: z.literal('aibom_diff'),
    fingerprint: z.string(),
    from_version: z.number().int(),
    to_version: z.number().int(),
    components: z.object({
      added: z.array(ZComponentRef),
      removed: z.array(ZComponentRef),
      changed: z.array(
        z.object({
          type: z.string(),
          name: z.string(),
          changes: z
            .record(z.string(), ZChange(z.unknown()))
            .openapi({ description: 'per field (version, license, hashes, supplier): from and to' }),
        }),
      ),
    }),
    lineage: z
      .object({
        relation: ZChange(z.string().nullable()).nullable(),
        base_models_added: z.array(z.string()),
        base_models_removed: z.array(z.string()),
      })
      .openapi({ description: 'base model and relation changes' }),
    primary_license: ZChange(z.string().nullable())
      .nullable()
      .openapi({ description: "the primary component's licence change (null when unchanged)" }),
    findings: z
      .object({ added: z.array(ZFindingRef), removed: z.array(ZFindingRef) })
      .nullable()
      .openapi({ description: 'findings between the two enrichments; null when history predates either version' }),
  })
  .openapi('AiBomDiff');
export type AiBomDiff = z.infer<typeof ZAiBomDiff>;

export const ZHistoryQuery = ZListQuery.strict();

// ── change events (docs/history.md "Change events", docs/drift.md) ──
const ZSummaryFinding = z.object({
  id: z.string().openapi({ description: 'the finding id (added: the new finding; removed: the id it had)' }),
  rule_id: z.string(),
  severity: z.enum(RISK_SEVERITIES),
});
const zCapped = (what: string) => ({ description: `the first 10 ${what}; the count is complete` });
export const ZChangeSummary = z
  .object({
    risk: z.object({
      score: ZChange(z.number().int().nullable()),
      severity: ZChange(z.enum(RISK_SEVERITIES).nullable()),
    }),
    bom_version: ZChange(z.number().int().nullable()),
    aibom: z
      .object({
        from_version: z.number().int(),
        to_version: z.number().int(),
        components: z.object({
          added_count: z.number().int(),
          removed_count: z.number().int(),
          changed_count: z.number().int(),
          added: z.array(ZComponentRef).openapi(zCapped('components added')),
          removed: z.array(ZComponentRef).openapi(zCapped('components removed')),
          changed: z
            .array(z.object({ type: z.string(), name: z.string(), fields: z.array(z.string()) }))
            .openapi(zCapped('components changed, with the fields that changed')),
        }),
        primary_license: ZChange(z.string().nullable()).nullable(),
        lineage: z.object({
          relation: ZChange(z.string().nullable()).nullable(),
          base_models_added: z.array(z.string()),
          base_models_removed: z.array(z.string()),
        }),
      })
      .nullable()
      .openapi({ description: 'the AI-BOM diff (GET /v1/assets/{fp}/aibom/diff) in short; null: same version' }),
    findings: z.object({
      added_count: z.number().int(),
      removed_count: z.number().int(),
      added: z.array(ZSummaryFinding).openapi({ description: 'the first 20; the count is complete' }),
      removed: z.array(ZSummaryFinding).openapi({ description: 'the first 20; the count is complete' }),
    }),
  })
  .openapi('ChangeSummary', {
    description:
      'what an enrichment changed, from shared (redacted) asset data only: asset.risk_changed, asset.aibom_changed, asset.tools_changed',
  });
export type ChangeSummary = z.infer<typeof ZChangeSummary>;

export const ZToolsChange = z
  .object({
    added_count: z.number().int(),
    removed_count: z.number().int(),
    changed_count: z.number().int(),
    added: z.array(z.string()).openapi(zCapped('tool names added')),
    removed: z.array(z.string()).openapi(zCapped('tool names removed')),
    changed: z.array(z.string()).openapi(zCapped('tool names whose definition changed')),
    drift_findings: z.array(ZSummaryFinding).openapi({
      description: 'the tool drift findings (R30–R33) on the asset now; their evidence holds before/after',
    }),
  })
  .openapi('ToolsChange', { description: "asset.tools_changed: the asset's tool set against the previous enrichment" });
