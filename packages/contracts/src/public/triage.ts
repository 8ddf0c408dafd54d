// Per-org triage, suppression rules, severity overrides, the score explanation and VEX exports
// (docs/triage.md). Everything here is private to the key's org in the key's mode; the shared asset
// and its intrinsic score are never changed by it.
import { z } from '../zod';
import { ZFingerprint, zFingerprintText } from '../fingerprint';
import { NO_CONTROL, ZListQuery, zList } from '../common';
import { RISK_SEVERITIES } from './assets';
import { ASSET_TYPE_VALUES } from './signals';
import { ATLAS_TECHNIQUE_PATTERN, CVE_ID_PATTERN } from './threats';
import { TRIAGE_STATES, VEX_JUSTIFICATIONS } from './triage-state';
import { EXAMPLE_CYCLONEDX_VEX } from './examples-triage';

const unix = (description = 'Unix seconds') => z.number().int().openapi({ description });

/** An acceptance lasts at most this long (docs/triage.md): a risk is re-reviewed at least once a year. */
export const MAX_ACCEPTANCE_DAYS = 366;
export const VEX_FORMATS = ['openvex', 'cyclonedx'] as const;

const zText = (max: number) => z.string().min(1).max(max).regex(NO_CONTROL, 'must not contain control characters');
// comments and reasons are prose: newlines and tabs are fine, other control characters are not
const zProse = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'must not contain control characters');
/** A rule id as the engine names them (R05, threat_match, format_not_analysed); the domain checks it exists. */
export const ZRuleId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'must be a rule id like R05')
  .openapi({ description: 'an enrichment rule id (docs/enrichment.md)', example: 'R09' });
const zFutureUnix = (description: string) => z.number().int().positive().openapi({ description });

export const ZTriageChange = z
  .object({
    id: z.string().openapi({ example: 'tre_01jd3q5k8m0000000000000000' }),
    object: z.literal('finding_triage_change'),
    from_state: z.enum(TRIAGE_STATES),
    to_state: z.enum(TRIAGE_STATES),
    justification: z.enum(VEX_JUSTIFICATIONS).nullable(),
    comment: z.string().nullable(),
    expires_at: unix().nullable(),
    set_by: z.string(),
    created: unix(),
  })
  .openapi('FindingTriageChange');
export type TriageChange = z.infer<typeof ZTriageChange>;

/** What the triage routes answer: the finding's triage now and its history, newest first (at most 100). */
export const ZFindingTriageResult = z
  .object({
    object: z.literal('finding_triage'),
    finding_id: z.string(),
    fingerprint: z.string(),
    rule_id: z.string(),
    finding_key: z.string().openapi({ description: "the finding's identity across enrichments (finding ids change)" }),
    state: z.enum(TRIAGE_STATES).openapi({ description: 'open when never triaged' }),
    justification: z.enum(VEX_JUSTIFICATIONS).nullable(),
    comment: z.string().nullable(),
    expires_at: unix().nullable(),
    set_by: z.string().nullable().openapi({ description: 'API key id (`system` for expiry); null when never triaged' }),
    created: unix().nullable(),
    updated: unix().nullable(),
    history: z.array(ZTriageChange).openapi({ description: 'changes, newest first (the latest 100)' }),
  })
  .openapi('FindingTriageResult');
export type FindingTriageResult = z.infer<typeof ZFindingTriageResult>;

export const ZTriageBody = z
  .strictObject({
    state: z.enum(TRIAGE_STATES),
    justification: z
      .enum(VEX_JUSTIFICATIONS)
      .optional()
      .openapi({ description: 'required with not_affected, refused otherwise' }),
    comment: zProse(2000).optional(),
    expires_at: zFutureUnix(
      `required with accepted_risk (Unix seconds, in the future, at most ${MAX_ACCEPTANCE_DAYS} days ahead), refused otherwise`,
    ).optional(),
  })
  .openapi('TriageBody');
export type TriageBody = z.infer<typeof ZTriageBody>;

export const ZTriageParams = z.object({
  fingerprint: ZFingerprint,
  finding_id: zText(64),
});

// ── suppression rules ──

export const ZSuppression = z
  .object({
    id: z.string().openapi({ example: 'sup_01jd3q5k8m0000000000000000' }),
    object: z.literal('suppression'),
    rule_id: z.string().nullable(),
    cve_id: z.string().nullable(),
    attack_technique: z.string().nullable(),
    fingerprint_glob: z.string().nullable(),
    asset_type: z.enum(ASSET_TYPE_VALUES).nullable(),
    reason: z.string(),
    expires_at: unix().nullable(),
    active: z.boolean().openapi({ description: 'false once expires_at has passed' }),
    created_by: z.string().openapi({ description: 'the id of the API key that created the rule' }),
    created: unix(),
  })
  .openapi('Suppression');
export type Suppression = z.infer<typeof ZSuppression>;
export const ZSuppressionList = zList(ZSuppression, 'SuppressionList');

export const ZCreateSuppressionBody = z
  .strictObject({
    rule_id: ZRuleId.optional(),
    cve_id: z.string().regex(CVE_ID_PATTERN, 'must look like CVE-2024-12345').optional(),
    attack_technique: z
      .string()
      .regex(ATLAS_TECHNIQUE_PATTERN, 'must be a MITRE ATLAS technique id like AML.T0010 or AML.T0010.001')
      .optional(),
    fingerprint_glob: zFingerprintText(1, 256)
      .optional()
      .openapi({ description: '`*` any run of characters, `?` one character, `\\` escapes; matched in linear time' }),
    asset_type: z.enum(ASSET_TYPE_VALUES).optional(),
    reason: zProse(1000),
    expires_at: zFutureUnix('optional end of the rule (Unix seconds, in the future)').optional(),
  })
  .openapi('CreateSuppressionBody', { description: 'at least one criterion; every criterion given must match' });
export type CreateSuppressionBody = z.infer<typeof ZCreateSuppressionBody>;

export const ZSuppressionParams = z.object({ id: zText(64) });
export const ZDeletedSuppression = z
  .object({ id: z.string(), object: z.literal('suppression'), deleted: z.literal(true) })
  .openapi('DeletedSuppression');

// ── severity overrides ──

export const ZSeverityOverride = z
  .object({
    object: z.literal('severity_override'),
    rule_id: z.string(),
    severity: z.enum(RISK_SEVERITIES),
    reason: z.string().nullable(),
    set_by: z.string(),
    created: unix(),
    updated: unix(),
  })
  .openapi('SeverityOverride');
export type SeverityOverride = z.infer<typeof ZSeverityOverride>;
export const ZSeverityOverrideList = zList(ZSeverityOverride, 'SeverityOverrideList');
export const ZSeverityOverrideParams = z.object({ rule_id: ZRuleId });
export const ZPutSeverityOverrideBody = z
  .strictObject({ severity: z.enum(RISK_SEVERITIES), reason: zProse(1000).optional() })
  .openapi('PutSeverityOverrideBody');
export const ZDeletedSeverityOverride = z
  .object({ rule_id: z.string(), object: z.literal('severity_override'), deleted: z.literal(true) })
  .openapi('DeletedSeverityOverride');

export const ZSuppressionListQuery = ZListQuery.strict();

// ── score explanation ──

export const ZScoreFactor = z
  .object({
    finding_id: z.string(),
    finding_key: z.string(),
    rule_id: z.string(),
    title: z.string(),
    kind: z.enum(['rule', 'threat']).openapi({ description: 'threat findings add their risk_penalty' }),
    severity: z.enum(RISK_SEVERITIES).openapi({ description: 'the severity the computation used' }),
    confidence: z.number(),
    band: z.enum(RISK_SEVERITIES).openapi({ description: 'the band the factor sets a floor for' }),
    weight: z.number().openapi({ description: 'severity weight x confidence (threats: the penalty)' }),
    exact_share: z.number().openapi({ description: 'the unrounded share of the total' }),
    contribution: z.number().int().openapi({ description: 'integer share; the contributions sum to the score' }),
    evidence: z.unknown(),
    threat_id: z.string().nullable(),
  })
  .openapi('ScoreFactor');

export const ZScoreExcluded = z
  .object({
    finding_id: z.string(),
    rule_id: z.string(),
    title: z.string(),
    reason: z.enum(['suppressed', 'false_positive', 'not_affected', 'accepted_risk']),
    suppression_ids: z.array(z.string()),
  })
  .openapi('ScoreExcludedFinding');

export const ZScoreComputation = z
  .object({
    score: z.number().int().nullable(),
    severity: z.enum(RISK_SEVERITIES).nullable(),
    band: z.enum(RISK_SEVERITIES),
    floor: z.number(),
    base: z.number().openapi({ description: 'floor + room x fill over the rule findings' }),
    threat_penalty: z.number(),
    total: z.number().openapi({ description: 'min(100, base + threat_penalty); score = round(total)' }),
    factors: z.array(ZScoreFactor).openapi({ description: 'worst first, in the order the formula takes them' }),
  })
  .openapi('ScoreComputation');

export const ZScoreExplanation = z
  .object({
    object: z.literal('score_explanation'),
    fingerprint: z.string(),
    formula: z.string(),
    severity_weights: z.record(z.string(), z.number()),
    band_floors: z.record(z.string(), z.number()),
    band_rooms: z.record(z.string(), z.number()),
    confident_at: z.number().openapi({ description: 'below this confidence a finding counts one band lower' }),
    intrinsic: ZScoreComputation.openapi({ description: 'the shared score, over every finding' }),
    effective: ZScoreComputation.extend({
      excluded: z.array(ZScoreExcluded),
      overrides_applied: z.array(
        z.object({ rule_id: z.string(), from: z.enum(RISK_SEVERITIES), to: z.enum(RISK_SEVERITIES) }),
      ),
    }).openapi({ description: "the key's org's view: exclusions and severity overrides applied" }),
  })
  .openapi('ScoreExplanation');
export type ScoreExplanation = z.infer<typeof ZScoreExplanation>;

export const ZVexQuery = z.strictObject({
  format: z
    .enum(VEX_FORMATS)
    .default('openvex')
    .openapi({ description: 'openvex (0.2.0, default) or cyclonedx (1.6)' }),
});

export const ZVexContent = {
  'application/json': { schema: z.record(z.string(), z.unknown()).openapi({ description: 'OpenVEX 0.2.0' }) },
  'application/vnd.cyclonedx+json': {
    schema: z.record(z.string(), z.unknown()).openapi({ description: 'CycloneDX 1.6 VEX' }),
    example: EXAMPLE_CYCLONEDX_VEX,
  },
};
