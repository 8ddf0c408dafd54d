// Asset contracts (docs/public-api.md "Signals and assets"): assets are shared by every org of a mode and keyed by fingerprint
// within it (docs/security.md "Modes and shared observations"); findings and AI-BOMs
// are served for enriched (and stale: last good result) assets only.
import { z } from '../zod';
import { FINGERPRINT_MAX_LENGTH, zFingerprintText } from '../fingerprint';
import { NO_CONTROL, ZListQuery, zList } from '../common';
import { zExpandParam, zQueryBool, zQueryList } from '../query';
import { ASSET_TYPE_VALUES, REPORTED_SCAN_SHAPE, ZFingerprint } from './signals';
import { ZThreat } from './threats';
import { ZFindingTriage } from './triage-state';
import { EXAMPLE_AIBOM, EXAMPLE_CYCLONEDX, EXAMPLE_SPDX_TAG_VALUE } from './examples';

export const ENRICHMENT_STATUSES = ['pending', 'enriched', 'failed', 'stale'] as const;
export const RISK_SEVERITIES = ['critical', 'high', 'medium', 'low', 'informational'] as const;
export const ASSET_EXPANDS = ['findings', 'aibom', 'artifacts'] as const;
/** Named files listed per asset with expand[]=artifacts (docs/artifacts.md "Judgement"). */
export const ASSET_ARTIFACTS_MAX = 1000;
export const FINDING_EXPANDS = ['threats'] as const;
export const AIBOM_FORMATS = ['json', 'spdx_json', 'spdx_tv', 'cyclonedx_json', 'spdx3_json'] as const;
export const LOOKUP_MAX_KEYS = 500;
export const LOOKUP_MAX_CANDIDATES = 5;
export const LOOKUP_MATCHES = ['exact', 'fingerprint', 'flexible', 'none'] as const;

const unix = (description = 'Unix seconds') => z.number().int().openapi({ description });

export const ZFinding = z
  .object({
    id: z.string().openapi({ example: 'fnd_01jd3q5k8m0000000000000000' }),
    object: z.literal('finding'),
    fingerprint: z.string(),
    rule_id: z.string(),
    title: z.string(),
    description: z.string(),
    severity: z.enum(RISK_SEVERITIES),
    category: z.string(),
    confidence: z.number(),
    evidence: z.unknown(),
    capabilities: z.array(z.string()).openapi({ description: 'derived capabilities' }),
    attack_techniques: z.array(z.string()).openapi({ description: 'MITRE ATLAS technique ids' }),
    cve_ids: z.array(z.string()),
    threats: z
      .array(z.union([z.string(), ZThreat]))
      .openapi({ description: 'related threat ids; threat objects with expand[]=threats' }),
    remediation: z.string().nullable(),
    score_contribution: z.number(),
    score_breakdown: z.unknown().nullable(),
    benchmark: z.unknown().nullable(),
    created: unix(),
    // the key's org's view (docs/triage.md); never part of the shared finding
    finding_key: z.string().openapi({ description: "the finding's identity across enrichments (ids change)" }),
    triage: z
      .union([ZFindingTriage, z.null()])
      .openapi({ description: "the key's org's analysis state; null when never triaged (open)" }),
    suppressed_by: z.array(z.string()).openapi({ description: "ids of the org's active suppression rules that match" }),
    effective_severity: z
      .enum(RISK_SEVERITIES)
      .openapi({ description: "the severity after the org's severity override for the rule, if any" }),
    counts_toward_effective_score: z.boolean().openapi({
      description: 'false when suppressed, false_positive, not_affected or accepted_risk (in date)',
    }),
  })
  .openapi('Finding');
export type Finding = z.infer<typeof ZFinding>;

export const ZAiBom = z
  .object({
    id: z.string().openapi({ example: 'bom_01jd3q5k8m0000000000000000' }),
    object: z.literal('aibom'),
    fingerprint: z.string(),
    bom_version: z.number().int().openapi({ description: 'only ever increases' }),
    spdx_metadata: z
      .object({
        spdx_version: z.string(),
        data_license: z.string().nullable(),
        document_name: z.string().nullable(),
        document_namespace: z.string().nullable(),
        created: z.string().nullable(),
        creators: z.array(z.string()),
      })
      .openapi({ description: 'SPDX document metadata' }),
    spdx: z.record(z.string(), z.unknown()).openapi({ description: 'the SPDX 2.3 JSON document' }),
    components: z.array(z.record(z.string(), z.unknown())).openapi({ description: 'normalized component inventory' }),
    lineage: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: 'model lineage when it can be derived' }),
    content_hash: z.string(),
    created: unix(),
  })
  .openapi('AiBom');
export type AiBom = z.infer<typeof ZAiBom>;

/** The key's org's own report of a named file (docs/artifacts.md "Client-reported scan results"), and whether it counts. */
export const ZAssetArtifactReport = z
  .object({
    ...REPORTED_SCAN_SHAPE,
    counts: z.boolean().openapi({
      description:
        "true when the report adds a client-reported finding to this org's view: a malicious, suspicious, invalid or unscannable report for bytes the platform has no benign, suspicious or malicious verdict of its own for, and worse than the platform's verdict if any (a reported benign changes nothing)",
    }),
  })
  .openapi('AssetArtifactReport');

/** One file the asset names by hash, with the platform's verdict for those bytes (docs/artifacts.md "Judgement"). */
export const ZAssetArtifact = z
  .object({
    path: z.string(),
    sha256: z.string().openapi({ description: 'SHA-256 of the bytes, 64 lowercase hex digits' }),
    size: z.number().int(),
    verdict: z.enum(['malicious', 'suspicious', 'benign', 'invalid', 'unscannable', 'unsupported']).nullable().openapi({
      description: "the platform analyser's verdict for these bytes (GET /v1/artifacts/{sha256}); null: not scanned",
    }),
    reported: z.union([ZAssetArtifactReport, z.null()]).openapi({
      description:
        'the scan result the key\'s org reported itself for these bytes on its latest signal (docs/artifacts.md "Client-reported scan results"); never another org\'s, null when none',
    }),
  })
  .openapi('AssetArtifact');
export type AssetArtifact = z.infer<typeof ZAssetArtifact>;

export const ZAsset = z
  .object({
    object: z.literal('asset'),
    fingerprint: z.string(),
    asset_type: z.enum(ASSET_TYPE_VALUES),
    name: z.string().nullable(),
    version: z.string().nullable(),
    ecosystem: z.string().nullable(),
    publisher: z.string().nullable(),
    enrichment_status: z.enum(ENRICHMENT_STATUSES),
    intrinsic_risk_score: z.number().int().nullable().openapi({ description: '0–100; null until enriched' }),
    intrinsic_risk_severity: z.enum(RISK_SEVERITIES).nullable(),
    effective_risk_score: z.number().int().nullable().openapi({
      description:
        "the key's org's view of the score: without suppressed, false_positive, not_affected and in-date accepted_risk findings, with its severity overrides (docs/triage.md); null until enriched",
    }),
    effective_risk_severity: z.enum(RISK_SEVERITIES).nullable(),
    publisher_trust: z.record(z.string(), z.unknown()).nullable(),
    benchmark_summary: z.record(z.string(), z.unknown()).nullable(),
    findings: z.array(ZFinding).nullable().openapi({ description: 'null unless expand[]=findings' }),
    artifacts: z.array(ZAssetArtifact).nullable().openapi({
      description:
        "null unless expand[]=artifacts: the files the asset's current observations name by hash (each org's latest signal, all orgs together), by path, at most 1,000",
    }),
    aibom: z
      .union([z.string(), ZAiBom])
      .nullable()
      .openapi({ description: 'AI-BOM id (or null); the object with expand[]=aibom' }),
    signal_count: z.number().int(),
    first_seen: unix(),
    last_seen: unix(),
    enriched_at: unix().nullable(),
    created: unix(),
    updated: unix(),
  })
  .openapi('Asset');
export type Asset = z.infer<typeof ZAsset>;

export const ZAssetList = zList(ZAsset, 'AssetList');
export const ZFindingList = zList(ZFinding, 'FindingList');
export const ZAssetThreatList = zList(ZThreat, 'AssetThreatList');

export const ZLookupCandidate = z
  .object({
    similarity: z.number().openapi({ description: 'pg_trgm similarity of normalized names, 0–1' }),
    asset: ZAsset,
  })
  .openapi('LookupCandidate');

export const ZLookupResult = z
  .object({
    object: z.literal('lookup_result'),
    key: z.object({
      fingerprint: z.string().nullable(),
      name: z.string().nullable(),
      version: z.string().nullable(),
      ecosystem: z.string().nullable(),
    }),
    match: z.enum(LOOKUP_MATCHES),
    // a union, not .nullable(): zod-to-openapi renders a nullable $ref as allOf [ref, object|null], which no
    // null satisfies (found by the response validation of the integration suites)
    asset: z.union([ZAsset, z.null()]),
    candidates: z
      .array(ZLookupCandidate)
      .optional()
      .openapi({ description: 'with include_candidates=true, name keys only' }),
  })
  .openapi('LookupResult');

export const ZLookupResponse = z
  .object({ object: z.literal('asset_lookup'), data: z.array(ZLookupResult) })
  .openapi('AssetLookup');
export type LookupResponse = z.infer<typeof ZLookupResponse>;

/** Findings formats (docs/formats.md "SARIF"): the API's list envelope, or one SARIF 2.1.0 log. */
export const FINDINGS_FORMATS = ['json', 'sarif'] as const;
export const SARIF_MEDIA_TYPE = 'application/sarif+json';
const zFindingsFormat = z
  .enum(FINDINGS_FORMATS)
  .default('json')
  .openapi({ description: 'json (default: the list envelope) or sarif (a SARIF 2.1.0 log, docs/formats.md)' });
/** A SARIF 2.1.0 log (validated against the OASIS schema in the tests; docs/formats.md). */
export const ZSarifLog = z
  .object({ version: z.literal('2.1.0'), runs: z.array(z.record(z.string(), z.unknown())) })
  .catchall(z.unknown())
  .openapi('SarifLog');

// ── query parameters (validated by the service and shown in the OpenAPI document) ──

// look-up keys are compared with stored names and fingerprints, which never hold control characters
const zLookupText = (min: number, max: number) =>
  z.string().min(min).max(max).regex(NO_CONTROL, 'must not contain control characters');

export const ZListAssetsQuery = ZListQuery.extend({
  asset_type: z.enum(ASSET_TYPE_VALUES).optional(),
  enrichment_status: z.enum(ENRICHMENT_STATUSES).optional(),
  intrinsic_risk_severity: z.enum(RISK_SEVERITIES).optional(),
  effective_risk_severity: z
    .enum(RISK_SEVERITIES)
    .optional()
    .openapi({ description: "the key's org's effective severity (docs/triage.md)" }),
  expand: zExpandParam(ASSET_EXPANDS),
  format: zFindingsFormat.openapi({
    description:
      'json (default: the list envelope) or sarif (the findings of this page of assets as one SARIF 2.1.0 log)',
  }),
}).strict();

export const ZAssetQuery = z.strictObject({ expand: zExpandParam(ASSET_EXPANDS) });

export const ZLookupQuery = z.strictObject({
  fingerprints: zQueryList(ZFingerprint).openapi({ description: 'repeatable; exact fingerprint look-up' }),
  lookup_name: zQueryList(zLookupText(1, 512)).openapi({
    description: 'repeatable; asset name (normalized: case, _-. folding, org/ prefix)',
  }),
  // empty values keep positions aligned and mean "any"
  lookup_version: zQueryList(zLookupText(0, 256)).openapi({
    description: 'repeatable; aligned by position with lookup_name (empty = any)',
  }),
  lookup_ecosystem: zQueryList(zLookupText(0, 64)).openapi({
    description: 'repeatable; aligned by position with lookup_name (empty = any)',
  }),
  lookup_fingerprint: zQueryList(zFingerprintText(0, FINGERPRINT_MAX_LENGTH)).openapi({
    description: 'repeatable; fallback fingerprint aligned by position with lookup_name',
  }),
  include_candidates: zQueryBool.optional().openapi({ description: 'up to 5 pg_trgm candidates per name key' }),
  expand: zExpandParam(ASSET_EXPANDS),
});

export const ZFindingsQuery = ZListQuery.extend({
  expand: zExpandParam(FINDING_EXPANDS),
  format: zFindingsFormat,
}).strict();

export const ZAiBomQuery = z.strictObject({
  format: z.enum(AIBOM_FORMATS).default('json').openapi({
    description:
      'json (default), spdx_json (SPDX 2.3), spdx_tv, cyclonedx_json, spdx3_json (SPDX 3.0.1 JSON-LD, AI and Dataset profiles)',
  }),
});

/** The AI-BOM route's media types, by format. */
export const ZAiBomContent = {
  'application/json': { schema: ZAiBom },
  'application/spdx+json': {
    schema: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'SPDX 2.3 JSON, or SPDX 3.0.1 JSON-LD (spdx3_json)' }),
    example: EXAMPLE_AIBOM.spdx,
  },
  'text/plain': { schema: z.string().openapi({ description: 'SPDX 2.3 tag-value' }), example: EXAMPLE_SPDX_TAG_VALUE },
  'application/vnd.cyclonedx+json': { schema: z.record(z.string(), z.unknown()), example: EXAMPLE_CYCLONEDX },
};
