// Threat intelligence contracts (docs/threats.md): shared threat records that every org can read and
// only the creating org can update. Bodies are strict: unknown fields are 400 parameter_unknown.
import { z } from '../zod';
import { ZFingerprint } from '../fingerprint';
import { ZListQuery, zList } from '../common';
import { zFreeFormObject } from '../json-depth';
import { publicRegistry } from '../openapi';

/** Closed category enum (docs/threats.md explains each one). */
export const THREAT_CATEGORIES = [
  'supply_chain_compromise',
  'malicious_model',
  'malicious_package',
  'model_backdoor',
  'data_poisoning',
  'prompt_injection',
  'tool_poisoning',
  'jailbreak',
  'vulnerable_dependency',
  'unsafe_deserialization',
  'typosquat',
  'credential_exposure',
  'data_exfiltration',
  'other',
] as const;
export type ThreatCategory = (typeof THREAT_CATEGORIES)[number];

export const THREAT_SEVERITIES = ['critical', 'high', 'medium', 'low', 'informational'] as const;

/** The asset types of docs/public-api.md (the same list signals accept). */
export const THREAT_ASSET_TYPES = [
  'model',
  'dataset',
  'mcp_server',
  'agent',
  'package',
  'prompt',
  'application',
  'extension',
  'notebook',
  'container_image',
] as const;

export const CVE_ID_PATTERN = /^CVE-\d{4}-\d{4,}$/;
/** MITRE ATLAS technique or sub-technique id (packages/enrichment/src/data/atlas.json). */
export const ATLAS_TECHNIQUE_PATTERN = /^AML\.T\d{4}(\.\d{3})?$/;

const METADATA_MAX_BYTES = 16 * 1024;

export const ZThreatMetadata = zFreeFormObject(METADATA_MAX_BYTES, '16 KiB').openapi({
  description: 'free-form JSON object, at most 16 KiB serialized',
});

const fields = {
  category: z.enum(THREAT_CATEGORIES),
  title: z.string().trim().min(1).max(200),
  description: z.string().max(10_000),
  severity: z.enum(THREAT_SEVERITIES),
  confidence: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1'),
  affected_asset_types: z.array(z.enum(THREAT_ASSET_TYPES)).max(THREAT_ASSET_TYPES.length),
  fingerprints: z.array(ZFingerprint).max(1000),
  attack_techniques: z
    .array(
      z.string().regex(ATLAS_TECHNIQUE_PATTERN, 'must be a MITRE ATLAS technique id like AML.T0010 or AML.T0010.001'),
    )
    .max(50),
  cve_id: z.string().regex(CVE_ID_PATTERN, 'must look like CVE-2024-12345'),
  remediation: z.string().max(10_000),
  source: z.string().max(2000),
  risk_penalty: z.int('must be an integer').min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100'),
  metadata: ZThreatMetadata,
};

export const ZCreateThreatBody = z
  .strictObject({
    category: fields.category,
    title: fields.title,
    severity: fields.severity,
    description: fields.description.optional(),
    confidence: fields.confidence.optional(),
    affected_asset_types: fields.affected_asset_types.optional(),
    fingerprints: fields.fingerprints.optional(),
    attack_techniques: fields.attack_techniques.optional(),
    cve_id: fields.cve_id.optional(),
    remediation: fields.remediation.optional(),
    source: fields.source.optional(),
    risk_penalty: fields.risk_penalty.optional(),
    metadata: fields.metadata.optional(),
  })
  .openapi('CreateThreatBody');
export type CreateThreatBody = z.infer<typeof ZCreateThreatBody>;

/** Partial update: send only what changes; null clears an optional field. id, created, created_by_org are immutable. */
export const ZUpdateThreatBody = z
  .strictObject({
    category: fields.category.optional(),
    title: fields.title.optional(),
    severity: fields.severity.optional(),
    description: fields.description.nullable().optional(),
    confidence: fields.confidence.nullable().optional(),
    affected_asset_types: fields.affected_asset_types.optional(),
    fingerprints: fields.fingerprints.optional(),
    attack_techniques: fields.attack_techniques.optional(),
    cve_id: fields.cve_id.nullable().optional(),
    remediation: fields.remediation.nullable().optional(),
    source: fields.source.nullable().optional(),
    risk_penalty: fields.risk_penalty.optional(),
    metadata: fields.metadata.nullable().optional(),
  })
  .openapi('UpdateThreatBody');
export type UpdateThreatBody = z.infer<typeof ZUpdateThreatBody>;

export const ZThreat = z
  .object({
    object: z.literal('threat'),
    id: z.string().openapi({ example: 'thr_01jd3q5k8m0000000000000000' }),
    category: z.enum(THREAT_CATEGORIES),
    title: z.string(),
    description: z.string().nullable(),
    severity: z.enum(THREAT_SEVERITIES),
    confidence: z.number().nullable(),
    affected_asset_types: z.array(z.enum(THREAT_ASSET_TYPES)).openapi({ description: 'empty = every asset type' }),
    fingerprints: z.array(z.string()),
    attack_techniques: z.array(z.string()),
    cve_id: z.string().nullable(),
    remediation: z.string().nullable(),
    source: z.string().nullable(),
    risk_penalty: z.number().int(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    created_by_org: z.string(),
    livemode: z.boolean(),
    created: z.number().int().openapi({ description: 'Unix seconds' }),
    updated: z.number().int().openapi({ description: 'Unix seconds' }),
  })
  .openapi('Threat');
export type Threat = z.infer<typeof ZThreat>;

export const ZThreatList = zList(ZThreat, 'ThreatList');

export const ZListThreatsQuery = ZListQuery.extend({
  category: z.enum(THREAT_CATEGORIES).optional(),
  severity: z.enum(THREAT_SEVERITIES).optional(),
  affected_asset_type: z.enum(THREAT_ASSET_TYPES).optional(),
});

publicRegistry.register('Threat', ZThreat);
