// Examples of the triage, suppression, severity-override, score, VEX, advisory and ATLAS routes
// (docs/architecture.md "Examples", docs/triage.md, docs/advisories.md), typed by their contracts so they cannot
// drift. Same story as examples.ts: org_acme reviews its Llama 3.1 LoRA adapter that ships pickle weights; it
// accepts the pickle risk for 90 days and raises the licence rule to medium. The score numbers are what
// computeScore (packages/enrichment/src/score.ts) returns for these findings.
import type { Advisory } from './advisories';
import type { AttackTechnique, AttackTechniqueList, ZAttackTactic } from './attack-techniques';
import { EXAMPLE_FINDING, EXAMPLE_FINGERPRINT, exampleList } from './examples';
import type { z } from '../zod';

type AttackTactic = z.infer<typeof ZAttackTactic>;
import type {
  CreateSuppressionBody,
  FindingTriageResult,
  ScoreExplanation,
  SeverityOverride,
  Suppression,
  TriageBody,
  TriageChange,
  ZDeletedSeverityOverride,
  ZDeletedSuppression,
  ZPutSeverityOverrideBody,
} from './triage';

/** 2026-11-22 07:20:55 UTC, as in examples.ts; the review happens the next morning. */
const T = 1795339255;
const REVIEWED = T + 86400 + 5400; // 2026-11-23 08:50:55 UTC
const ACCEPTED_UNTIL = REVIEWED + 86400 * 90; // 2027-02-21 08:50:55 UTC
const KEY_ID = 'key_01m81a2x7hq9v3d5k8n4tjw6rb';
const COMMENT =
  'Loaded only in the sandboxed eval cluster (no network egress). Migration to safetensors tracked in SEC-4821.';
const LICENCE_FINDING_ID = 'fnd_01m81c8dkkb77xkmqh8h3t44zt';
const LICENCE_FINDING_KEY = '4f2a9d61c08e3b7a5d1e6c92';

// ── triage ──

export const EXAMPLE_TRIAGE_BODY: TriageBody = {
  state: 'accepted_risk',
  comment: COMMENT,
  expires_at: ACCEPTED_UNTIL,
};

const TRIAGE_HISTORY: TriageChange[] = [
  {
    id: 'tre_01m83k4v9pfj2w6c8ys0hq3tdm',
    object: 'finding_triage_change',
    from_state: 'acknowledged',
    to_state: 'accepted_risk',
    justification: null,
    comment: COMMENT,
    expires_at: ACCEPTED_UNTIL,
    set_by: KEY_ID,
    created: REVIEWED,
  },
  {
    id: 'tre_01m83f0q2b7xn5r1e4ah8vkz6c',
    object: 'finding_triage_change',
    from_state: 'open',
    to_state: 'acknowledged',
    justification: null,
    comment: 'Confirmed: adapter_model.bin is a pickle; no safetensors export published.',
    expires_at: null,
    set_by: KEY_ID,
    created: REVIEWED - 3600,
  },
];

export const EXAMPLE_FINDING_TRIAGE: FindingTriageResult = {
  object: 'finding_triage',
  finding_id: EXAMPLE_FINDING.id,
  fingerprint: EXAMPLE_FINGERPRINT,
  rule_id: EXAMPLE_FINDING.rule_id,
  finding_key: EXAMPLE_FINDING.finding_key,
  state: 'accepted_risk',
  justification: null,
  comment: COMMENT,
  expires_at: ACCEPTED_UNTIL,
  set_by: KEY_ID,
  created: REVIEWED - 3600,
  updated: REVIEWED,
  history: TRIAGE_HISTORY,
};

// ── suppression rules ──

export const EXAMPLE_CREATE_SUPPRESSION: CreateSuppressionBody = {
  rule_id: 'R18',
  asset_type: 'mcp_server',
  fingerprint_glob: 'npm:@modelcontextprotocol/server-filesystem@*',
  reason:
    'Mounted read-only on /srv/share in every deployment; the write and delete tools cannot reach disk (SEC-4790).',
  expires_at: T + 86400 * 180,
};

export const EXAMPLE_SUPPRESSION: Suppression = {
  id: 'sup_01m83m7tq5c2e8w0j6fy4nbx9a',
  object: 'suppression',
  rule_id: 'R18',
  cve_id: null,
  attack_technique: null,
  fingerprint_glob: EXAMPLE_CREATE_SUPPRESSION.fingerprint_glob!,
  asset_type: 'mcp_server',
  reason: EXAMPLE_CREATE_SUPPRESSION.reason,
  expires_at: EXAMPLE_CREATE_SUPPRESSION.expires_at!,
  active: true,
  created_by: KEY_ID,
  created: REVIEWED + 900,
};

const CVE_SUPPRESSION: Suppression = {
  id: 'sup_01m7zr1d6w3k9p2x5m8c0vgt4e',
  object: 'suppression',
  rule_id: null,
  cve_id: 'CVE-2025-32434',
  attack_technique: null,
  fingerprint_glob: 'pypi:torch@2.5.*',
  asset_type: 'package',
  reason:
    'Inference images load only our own signed checkpoints; torch 2.6 upgrade scheduled for the Q1 image rebuild.',
  expires_at: null,
  active: true,
  created_by: 'key_01m7zq8e4y6b1s3v9d2h5kx0wn',
  created: T - 86400 * 9,
};

export const EXAMPLE_SUPPRESSION_LIST = exampleList('/v1/suppressions', [EXAMPLE_SUPPRESSION, CVE_SUPPRESSION]);

export const EXAMPLE_DELETED_SUPPRESSION: z.infer<typeof ZDeletedSuppression> = {
  id: EXAMPLE_SUPPRESSION.id,
  object: 'suppression',
  deleted: true,
};

// ── severity overrides ──

export const EXAMPLE_PUT_SEVERITY_OVERRIDE: z.infer<typeof ZPutSeverityOverrideBody> = {
  severity: 'medium',
  reason: 'Legal must review every use-restricted licence before production (policy LEG-12).',
};

export const EXAMPLE_SEVERITY_OVERRIDE: SeverityOverride = {
  object: 'severity_override',
  rule_id: 'R10',
  severity: 'medium',
  reason: EXAMPLE_PUT_SEVERITY_OVERRIDE.reason!,
  set_by: KEY_ID,
  created: REVIEWED + 1200,
  updated: REVIEWED + 1200,
};

export const EXAMPLE_SEVERITY_OVERRIDE_LIST = exampleList('/v1/severity-overrides', [
  EXAMPLE_SEVERITY_OVERRIDE,
  {
    object: 'severity_override' as const,
    rule_id: 'R26',
    severity: 'informational' as const,
    reason: 'Our MCP gateway enforces per-tool allow lists; missing annotations carry no risk here.',
    set_by: 'key_01m7zq8e4y6b1s3v9d2h5kx0wn',
    created: T - 86400 * 30,
    updated: T - 86400 * 30,
  },
]);

export const EXAMPLE_DELETED_SEVERITY_OVERRIDE: z.infer<typeof ZDeletedSeverityOverride> = {
  rule_id: 'R10',
  object: 'severity_override',
  deleted: true,
};

// ── score explanation ──

const PICKLE_FACTOR = {
  finding_id: EXAMPLE_FINDING.id,
  finding_key: EXAMPLE_FINDING.finding_key,
  rule_id: 'R01',
  title: EXAMPLE_FINDING.title,
  kind: 'rule' as const,
  severity: 'high' as const,
  confidence: 0.9,
  band: 'high' as const,
  weight: 31.5,
  exact_share: 75.985,
  contribution: 76,
  evidence: EXAMPLE_FINDING.evidence,
  threat_id: null,
};
const LICENCE_FACTOR = {
  finding_id: LICENCE_FINDING_ID,
  finding_key: LICENCE_FINDING_KEY,
  rule_id: 'R10',
  title: 'Use-restricted or custom licence',
  kind: 'rule' as const,
  severity: 'low' as const,
  confidence: 1,
  band: 'low' as const,
  weight: 5,
  exact_share: 0.6508,
  contribution: 1,
  evidence: { license: 'llama3.1' },
  threat_id: null,
};

export const EXAMPLE_SCORE_EXPLANATION: ScoreExplanation = {
  object: 'score_explanation',
  fingerprint: EXAMPLE_FINGERPRINT,
  formula:
    'band = worst finding band (severity, one band lower when confidence < 0.75); score = floor(band) + room(band) x (1 - prod(1 - w_i/100)) over rule findings (w_i = severity weight x confidence; floors 0/10/40/70/90, room 9/29/29/19/10); total = min(100, score + sum(threat risk_penalty)); score = round(total)',
  severity_weights: { critical: 60, high: 35, medium: 15, low: 5, informational: 0 },
  band_floors: { informational: 0, low: 10, medium: 40, high: 70, critical: 90 },
  band_rooms: { informational: 9, low: 29, medium: 29, high: 19, critical: 10 },
  confident_at: 0.75,
  intrinsic: {
    score: 77,
    severity: 'high',
    band: 'high',
    floor: 70,
    base: 76.64,
    threat_penalty: 0,
    total: 76.64,
    factors: [PICKLE_FACTOR, LICENCE_FACTOR],
  },
  effective: {
    score: 44,
    severity: 'medium',
    band: 'medium',
    floor: 40,
    base: 44.35,
    threat_penalty: 0,
    total: 44.35,
    factors: [
      { ...LICENCE_FACTOR, severity: 'medium', band: 'medium', weight: 15, exact_share: 44.35, contribution: 44 },
    ],
    excluded: [
      {
        finding_id: EXAMPLE_FINDING.id,
        rule_id: 'R01',
        title: EXAMPLE_FINDING.title,
        reason: 'accepted_risk',
        suppression_ids: [],
      },
    ],
    overrides_applied: [{ rule_id: 'R10', from: 'low', to: 'medium' }],
  },
};

// ── VEX (what GET …/vex renders for the triage above; OpenVEX 0.2.0 and CycloneDX 1.6 schema-valid) ──

const PURL = 'pkg:huggingface/acme-ai/llama-3.1-8b-support-lora';
const VEX_NOW = '2026-11-23T09:12:04.318Z';

export const EXAMPLE_OPENVEX = {
  '@context': 'https://openvex.dev/ns/v0.2.0',
  '@id': 'urn:uuid:7c9e2f14-5b3a-4d8e-9f61-2a0b8c4d7e35',
  author: 'org_acme',
  role: 'Document Creator',
  timestamp: VEX_NOW,
  version: 1,
  tooling: 'risk-intelligence-platform',
  statements: [
    {
      vulnerability: { name: 'R01', description: EXAMPLE_FINDING.title },
      timestamp: '2026-11-23T08:50:55.000Z',
      products: [
        {
          '@id': `urn:risk:asset:${encodeURIComponent(EXAMPLE_FINGERPRINT)}`,
          identifiers: { purl: PURL },
        },
      ],
      status: 'affected',
      action_statement: `Risk accepted until 2027-02-21T08:50:55.000Z: ${COMMENT}`,
    },
    {
      vulnerability: { name: 'R10', description: 'Use-restricted or custom licence' },
      products: [
        {
          '@id': `urn:risk:asset:${encodeURIComponent(EXAMPLE_FINGERPRINT)}`,
          identifiers: { purl: PURL },
        },
      ],
      status: 'under_investigation',
    },
  ],
};

export const EXAMPLE_CYCLONEDX_VEX = {
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  serialNumber: 'urn:uuid:0f5d3a86-2c71-4e9b-a8d4-6b1e9c3f7a20',
  version: 1,
  metadata: {
    timestamp: '2026-11-23T09:12:04Z',
    tools: { components: [{ type: 'application', name: 'risk-intelligence-platform' }] },
    component: {
      type: 'machine-learning-model',
      'bom-ref': EXAMPLE_FINGERPRINT,
      name: 'acme-ai/llama-3.1-8b-support-lora',
      version: '1.2.0',
      purl: PURL,
    },
  },
  vulnerabilities: [
    {
      'bom-ref': 'vex-1',
      id: 'R01',
      ratings: [{ severity: 'high', method: 'other' }],
      description: EXAMPLE_FINDING.title,
      recommendation: EXAMPLE_FINDING.remediation,
      analysis: {
        state: 'exploitable',
        response: ['will_not_fix'],
        lastUpdated: '2026-11-23T08:50:55Z',
        detail: `Risk accepted until 2027-02-21T08:50:55Z: ${COMMENT}`,
      },
      affects: [{ ref: EXAMPLE_FINGERPRINT }],
    },
    {
      'bom-ref': 'vex-2',
      id: 'R10',
      ratings: [{ severity: 'low', method: 'other' }],
      description: 'Use-restricted or custom licence',
      recommendation: 'Review the licence terms and record acceptance; propagate obligations downstream.',
      analysis: { state: 'in_triage' },
      affects: [{ ref: EXAMPLE_FINGERPRINT }],
    },
  ],
};

// ── advisories: the PyPA record of CVE-2022-45907 (its versions list abridged), as GET /v1/advisories/PYSEC-2022-43015 returns it ──

const PYSEC_OSV = {
  id: 'PYSEC-2022-43015',
  modified: '2023-05-04T03:49:48.383740Z',
  published: '2022-11-26T02:15:00Z',
  aliases: ['CVE-2022-45907'],
  details:
    'In PyTorch before trunk/89695, torch.jit.annotations.parse_type_line can cause arbitrary code execution because eval is used unsafely.',
  affected: [
    {
      package: { name: 'torch', ecosystem: 'PyPI', purl: 'pkg:pypi/torch' },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.13.1' }] }],
      versions: [
        '1.0.0',
        '1.0.1',
        '1.1.0',
        '1.2.0',
        '1.3.0',
        '1.3.1',
        '1.4.0',
        '1.5.0',
        '1.5.1',
        '1.6.0',
        '1.7.0',
        '1.7.1',
        '1.8.0',
        '1.8.1',
        '1.9.0',
        '1.9.1',
        '1.10.0',
        '1.10.1',
        '1.10.2',
        '1.11.0',
        '1.12.0',
        '1.12.1',
        '1.13.0',
      ],
    },
  ],
  references: [
    { type: 'FIX', url: 'https://github.com/pytorch/pytorch/commit/767f6aa49fe20a2766b9843d01e3b7f7793df6a3' },
    { type: 'REPORT', url: 'https://github.com/pytorch/pytorch/issues/88868' },
  ],
};

export const EXAMPLE_ADVISORY: Advisory = {
  object: 'advisory',
  id: PYSEC_OSV.id,
  aliases: PYSEC_OSV.aliases,
  source: 'pypa',
  summary: PYSEC_OSV.details,
  severity: null,
  published: 1669428900,
  modified: 1683172188,
  withdrawn: null,
  affected: [
    {
      ecosystem: 'pypi',
      name: 'torch',
      ranges: PYSEC_OSV.affected[0]!.ranges,
      versions: PYSEC_OSV.affected[0]!.versions,
    },
  ],
  references: PYSEC_OSV.references.map((r) => r.url),
  related: ['CVE-2022-45907'],
  url: '/v1/advisories/PYSEC-2022-43015',
  osv: PYSEC_OSV,
};

// ── MITRE ATLAS 5.6.0 (packages/enrichment/src/data/atlas.json) ──

const tactic = (id: string, name: string): AttackTactic => ({
  id,
  name,
  url: `https://atlas.mitre.org/tactics/${id}`,
});
const technique = (input: { id: string; name: string; tactics: AttackTactic[]; parent?: string }): AttackTechnique => ({
  object: 'attack_technique',
  id: input.id,
  name: input.name,
  url: `https://atlas.mitre.org/techniques/${input.id}`,
  tactics: input.tactics,
  subtechnique_of: input.parent ?? null,
  atlas_version: '5.6.0',
});
const INITIAL_ACCESS = tactic('AML.TA0004', 'Initial Access');
const EXECUTION = tactic('AML.TA0005', 'Execution');

export const EXAMPLE_ATTACK_TECHNIQUE = technique({
  id: 'AML.T0010.001',
  name: 'AI Software',
  tactics: [INITIAL_ACCESS],
  parent: 'AML.T0010',
});

export const EXAMPLE_ATTACK_TECHNIQUE_LIST: AttackTechniqueList = {
  object: 'list',
  data: [
    technique({ id: 'AML.T0010', name: 'AI Supply Chain Compromise', tactics: [INITIAL_ACCESS] }),
    EXAMPLE_ATTACK_TECHNIQUE,
    technique({ id: 'AML.T0010.003', name: 'Model', tactics: [INITIAL_ACCESS], parent: 'AML.T0010' }),
    technique({ id: 'AML.T0011', name: 'User Execution', tactics: [EXECUTION] }),
    technique({ id: 'AML.T0011.000', name: 'Unsafe AI Artifacts', tactics: [EXECUTION], parent: 'AML.T0011' }),
  ],
  has_more: false,
  url: '/v1/attack-techniques',
  next_cursor: null,
  tactics: [
    tactic('AML.TA0002', 'Reconnaissance'),
    tactic('AML.TA0003', 'Resource Development'),
    INITIAL_ACCESS,
    tactic('AML.TA0000', 'AI Model Access'),
    EXECUTION,
    tactic('AML.TA0006', 'Persistence'),
    tactic('AML.TA0012', 'Privilege Escalation'),
    tactic('AML.TA0007', 'Defense Evasion'),
    tactic('AML.TA0013', 'Credential Access'),
    tactic('AML.TA0008', 'Discovery'),
    tactic('AML.TA0015', 'Lateral Movement'),
    tactic('AML.TA0009', 'Collection'),
    tactic('AML.TA0001', 'AI Attack Staging'),
    tactic('AML.TA0014', 'Command and Control'),
    tactic('AML.TA0010', 'Exfiltration'),
    tactic('AML.TA0011', 'Impact'),
  ],
};
