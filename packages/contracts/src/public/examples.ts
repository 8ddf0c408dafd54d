// The public API's example objects (docs/architecture.md "Examples"): one realistic instance of each resource,
// typed by its contract so an example cannot drift from the type, and shown by the route definitions
// (services/public-api/src/routes/*.ts doc.examples) and the webhook payloads (webhook-events.ts). One story
// throughout: org_acme submits a LoRA adapter of Llama 3.1 that ships pickle weights; it is enriched to "high".
import type { Asset, AiBom, Finding } from './assets';
import type { Event } from './events';
import type { AiBomDiff, AiBomVersion, AssetHistoryEntry } from './history';
import type { CreateSignalBody, Signal, SignalAccepted, SignalBatch } from './signals';
import type { CreateThreatBody, Threat, UpdateThreatBody } from './threats';
import type { CreateWebhookBody, UpdateWebhookBody, WebhookDelivery, WebhookEndpoint } from './webhooks';

/** 2026-11-22 07:20:55 UTC and a few moments after it (Unix seconds, as every timestamp of the API). */
const T = 1795339255;

export const EXAMPLE_FINGERPRINT = 'hf:acme-ai/llama-3.1-8b-support-lora';
const FP_PATH = encodeURIComponent(EXAMPLE_FINGERPRINT);
const BOM_ID = 'bom_01m81c8dkq3v9t2w7x4yb6za0c';

/** A list envelope as the API renders it (packages/common pagination). */
export function exampleList<T>(url: string, data: T[], hasMore = false) {
  return {
    object: 'list' as const,
    data,
    has_more: hasMore,
    url,
    next_cursor: hasMore ? ((data.at(-1) as { id?: string } | undefined)?.id ?? null) : null,
  };
}

export const EXAMPLE_CREATE_SIGNAL: CreateSignalBody = {
  fingerprint: EXAMPLE_FINGERPRINT,
  asset_type: 'model',
  org_id: 'org_acme',
  observed_at: T,
  name: 'acme-ai/llama-3.1-8b-support-lora',
  version: '1.2.0',
  source_url: 'https://huggingface.co/acme-ai/llama-3.1-8b-support-lora',
  raw_manifest:
    '---\nlicense: llama3.1\nbase_model: meta-llama/Llama-3.1-8B-Instruct\nbase_model_relation: adapter\nlibrary_name: peft\n---\n# Support assistant LoRA\nFine-tuned on 40k anonymised support tickets.',
  metadata: { scanner: 'risk-collector/2.4.1', cluster: 'prod-eu-1' },
  artifacts: [
    {
      path: 'adapter_model.bin',
      sha256: '9b74c9897bac770ffc029102a200c5de8f1f6a8a1a1b1c5f3e2d1c0b9a887766',
      size: 33_571_917,
      // the collector's own scan of the file (docs/artifacts.md "Client-reported scan results"): this org's view only
      reported: { verdict: 'benign', analyser: 'risk-scan', analyser_version: '1.4.0' },
    },
  ],
};

export const EXAMPLE_SIGNAL: Signal = {
  id: 'sig_01m81afqp3ewk14hzs5dbp9g6p',
  object: 'signal',
  fingerprint: EXAMPLE_FINGERPRINT,
  asset_type: 'model',
  org_id: 'org_acme',
  observed_at: T,
  name: EXAMPLE_CREATE_SIGNAL.name!,
  version: '1.2.0',
  source_url: EXAMPLE_CREATE_SIGNAL.source_url!,
  raw_manifest: EXAMPLE_CREATE_SIGNAL.raw_manifest!,
  metadata: EXAMPLE_CREATE_SIGNAL.metadata!,
  artifacts: EXAMPLE_CREATE_SIGNAL.artifacts!,
  content_digest: '6b1f0c9e4d2a87f35e0b9c1d7a4f2e8b3c6d9a0e1f4b7c2d5e8a1b4c7d0e3f6a',
  livemode: true,
  created: T + 1,
};

export const EXAMPLE_SIGNAL_ACCEPTED: SignalAccepted = {
  ...EXAMPLE_SIGNAL,
  enrichment: { status: 'queued', reason: 'new_asset' },
};

export const EXAMPLE_CREATE_SIGNALS_BULK = {
  signals: [
    EXAMPLE_CREATE_SIGNAL,
    {
      fingerprint: 'npm:@modelcontextprotocol/server-filesystem@2025.8.21',
      asset_type: 'mcp_server' as const,
      org_id: 'org_acme',
      observed_at: T,
      name: '@modelcontextprotocol/server-filesystem',
      version: '2025.8.21',
      raw_manifest:
        '{"mcpServers":{"filesystem":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/srv/share"]}}}',
    },
  ],
};

export const EXAMPLE_SIGNAL_BATCH: SignalBatch = {
  object: 'signal_batch',
  data: [
    {
      id: EXAMPLE_SIGNAL.id,
      object: 'signal',
      fingerprint: EXAMPLE_SIGNAL.fingerprint,
      content_digest: EXAMPLE_SIGNAL.content_digest,
      created: EXAMPLE_SIGNAL.created,
      enrichment: { status: 'queued', reason: 'new_asset' },
    },
    {
      id: 'sig_01m81b9bwreze0an7s5sfs4yq0',
      object: 'signal',
      fingerprint: 'npm:@modelcontextprotocol/server-filesystem@2025.8.21',
      content_digest: '0d4e9b2c7a1f5e8d3b6c9a2f4e7d0b3c6a9f2e5d8b1c4a7f0e3d6b9c2a5f8e1d',
      created: EXAMPLE_SIGNAL.created,
      enrichment: { status: 'skipped', reason: 'up_to_date' },
    },
  ],
  enrichment_queued: 1,
};

export const EXAMPLE_THREAT: Threat = {
  object: 'threat',
  id: 'thr_01m81bye277js3qqwbbgm64xhv',
  category: 'malicious_model',
  title: 'Backdoored LoRA adapter exfiltrates prompts',
  description:
    'Adapter weights ship as pickle (adapter_model.bin) whose reduce hook posts prompts to a remote host at load time.',
  severity: 'high',
  confidence: 0.85,
  affected_asset_types: ['model'],
  fingerprints: [EXAMPLE_FINGERPRINT],
  attack_techniques: ['AML.T0018.002', 'AML.T0011.000'],
  cve_id: null,
  remediation: 'Remove the adapter; load adapters from safetensors only.',
  source: 'https://intel.acme.example/reports/2026-117',
  risk_penalty: 30,
  metadata: { report_id: 'ACME-2026-117', tlp: 'amber' },
  created_by_org: 'org_acme',
  livemode: true,
  created: T + 600,
  updated: T + 600,
};

export const EXAMPLE_CREATE_THREAT: CreateThreatBody = {
  category: EXAMPLE_THREAT.category,
  title: EXAMPLE_THREAT.title,
  severity: EXAMPLE_THREAT.severity,
  description: EXAMPLE_THREAT.description!,
  confidence: 0.85,
  affected_asset_types: ['model'],
  fingerprints: [EXAMPLE_FINGERPRINT],
  attack_techniques: ['AML.T0018.002', 'AML.T0011.000'],
  remediation: EXAMPLE_THREAT.remediation!,
  source: EXAMPLE_THREAT.source!,
  risk_penalty: 30,
  metadata: { report_id: 'ACME-2026-117', tlp: 'amber' },
};

export const EXAMPLE_UPDATE_THREAT: UpdateThreatBody = { severity: 'critical', confidence: 0.97 };
export const EXAMPLE_THREAT_UPDATED: Threat = {
  ...EXAMPLE_THREAT,
  severity: 'critical',
  confidence: 0.97,
  updated: T + 5400,
};

export const EXAMPLE_FINDING: Finding = {
  id: 'fnd_01m81c8dkkb77xkmqh8h3t44zs',
  object: 'finding',
  fingerprint: EXAMPLE_FINGERPRINT,
  rule_id: 'R01',
  title: 'Pickle-based weight files without a safetensors alternative',
  description:
    'Loading .bin/.pt/.pth/.ckpt/.pkl/.pickle/.joblib/.dill runs the pickle VM, which can execute arbitrary code.',
  severity: 'high',
  category: 'unsafe_serialization',
  confidence: 0.9,
  evidence: { files: ['adapter_model.bin'], safetensors_alternative: false },
  capabilities: ['code_execution_on_load'],
  attack_techniques: ['AML.T0011.000'],
  cve_ids: [],
  threats: [EXAMPLE_THREAT.id],
  remediation: 'Publish and load safetensors weights; scan pickles before loading.',
  score_contribution: 35,
  score_breakdown: { weight: 35, contribution: 35 },
  benchmark: null,
  created: T + 42,
  finding_key: '9c41e07b2d5a38f16e0b4c7d',
  triage: null,
  suppressed_by: [],
  effective_severity: 'high',
  counts_toward_effective_score: true,
};

const LICENCE_FINDING: Finding = {
  ...EXAMPLE_FINDING,
  id: 'fnd_01m81c8dkkb77xkmqh8h3t44zt',
  rule_id: 'R10',
  title: 'Use-restricted or custom licence',
  description: 'Llama/Gemma/OpenRAIL/other licences carry use restrictions that flow to derivatives.',
  severity: 'low',
  category: 'license',
  confidence: 1,
  evidence: { license: 'llama3.1' },
  capabilities: [],
  attack_techniques: [],
  threats: [],
  remediation: 'Review the licence terms and record acceptance; propagate obligations downstream.',
  score_contribution: 5,
  score_breakdown: { weight: 5, contribution: 5 },
};

export const EXAMPLE_AIBOM: AiBom = {
  id: BOM_ID,
  object: 'aibom',
  fingerprint: EXAMPLE_FINGERPRINT,
  bom_version: 2,
  spdx_metadata: {
    spdx_version: 'SPDX-2.3',
    data_license: 'CC0-1.0',
    document_name: 'acme-ai/llama-3.1-8b-support-lora',
    document_namespace: 'https://risk.example.com/spdx/hf/acme-ai/llama-3.1-8b-support-lora/2',
    created: '2026-11-22T07:21:37Z',
    creators: ['Tool: risk-intelligence-enrichment'],
  },
  spdx: {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: 'acme-ai/llama-3.1-8b-support-lora',
    packages: [{ SPDXID: 'SPDXRef-Package-model', name: 'acme-ai/llama-3.1-8b-support-lora', versionInfo: '1.2.0' }],
  },
  components: [
    { type: 'model', name: 'acme-ai/llama-3.1-8b-support-lora', version: '1.2.0', license: 'llama3.1' },
    { type: 'model', name: 'meta-llama/Llama-3.1-8B-Instruct', version: null, license: 'llama3.1' },
  ],
  lineage: { relation: 'adapter', base_models: ['meta-llama/Llama-3.1-8B-Instruct'] },
  content_hash: '3e7a9c1b5d2f8e4a0c6b9d3f7e1a5c8b2d4f6e9a0b3c7d1e5f8a2b6c9d0e4f7a',
  created: T + 42,
};

export const EXAMPLE_ASSET: Asset = {
  object: 'asset',
  fingerprint: EXAMPLE_FINGERPRINT,
  asset_type: 'model',
  name: 'acme-ai/llama-3.1-8b-support-lora',
  version: '1.2.0',
  ecosystem: 'huggingface',
  publisher: 'acme-ai',
  enrichment_status: 'enriched',
  intrinsic_risk_score: 62,
  intrinsic_risk_severity: 'high',
  effective_risk_score: 62,
  effective_risk_severity: 'high',
  publisher_trust: {
    publisher: 'acme-ai',
    verified: false,
    level: 'unknown',
    score: 35,
    factors: [
      { factor: 'baseline', delta: 30 },
      { factor: 'org_count', delta: 5, detail: '3' },
    ],
  },
  benchmark_summary: null,
  findings: null,
  artifacts: null,
  aibom: BOM_ID,
  signal_count: 14,
  first_seen: T - 86400 * 12,
  last_seen: T,
  enriched_at: T + 42,
  created: T - 86400 * 12,
  updated: T + 42,
};

export const EXAMPLE_ASSET_EXPANDED: Asset = { ...EXAMPLE_ASSET, findings: [EXAMPLE_FINDING, LICENCE_FINDING] };

const MCP_ASSET: Asset = {
  ...EXAMPLE_ASSET,
  fingerprint: 'npm:@modelcontextprotocol/server-filesystem@2025.8.21',
  asset_type: 'mcp_server',
  name: '@modelcontextprotocol/server-filesystem',
  version: '2025.8.21',
  ecosystem: 'npm',
  publisher: 'modelcontextprotocol',
  intrinsic_risk_score: 41,
  intrinsic_risk_severity: 'medium',
  publisher_trust: { publisher: 'modelcontextprotocol', verified: true, level: 'verified', score: 90, factors: [] },
  aibom: 'bom_01m81c8dkq3v9t2w7x4yb6za0d',
  signal_count: 231,
};

export const EXAMPLE_ASSET_LIST = exampleList('/v1/assets', [EXAMPLE_ASSET, MCP_ASSET], true);
export const EXAMPLE_FINDING_LIST = exampleList(`/v1/assets/${FP_PATH}/findings`, [EXAMPLE_FINDING, LICENCE_FINDING]);
export const EXAMPLE_ASSET_THREAT_LIST = exampleList(`/v1/assets/${FP_PATH}/threats`, [EXAMPLE_THREAT]);
export const EXAMPLE_THREAT_LIST = exampleList('/v1/threats', [EXAMPLE_THREAT]);

export const EXAMPLE_LOOKUP = {
  object: 'asset_lookup' as const,
  data: [
    {
      object: 'lookup_result' as const,
      key: { fingerprint: null, name: 'acme-ai/llama-3.1-8b-support-lora', version: '1.2.0', ecosystem: null },
      match: 'exact' as const,
      asset: EXAMPLE_ASSET,
    },
    {
      object: 'lookup_result' as const,
      key: { fingerprint: null, name: 'acme-ai/llama-3-8b-support', version: null, ecosystem: null },
      match: 'none' as const,
      asset: null,
      candidates: [{ similarity: 0.71, asset: EXAMPLE_ASSET }],
    },
  ],
};

export const EXAMPLE_HISTORY_ENTRY: AssetHistoryEntry = {
  id: 'ahe_01m81c8dkkb77xkmqh8h3t44zy',
  object: 'asset_history_entry',
  fingerprint: EXAMPLE_FINGERPRINT,
  intrinsic_risk_score: 62,
  intrinsic_risk_severity: 'high',
  previous_risk_score: 20,
  previous_risk_severity: 'low',
  bom_version: 2,
  findings_added: [{ rule_id: 'R01', title: EXAMPLE_FINDING.title, severity: 'high' }],
  findings_removed: [],
  findings_changed: [],
  created: T + 42,
};
export const EXAMPLE_HISTORY_LIST = exampleList(`/v1/assets/${FP_PATH}/history`, [EXAMPLE_HISTORY_ENTRY]);

export const EXAMPLE_AIBOM_VERSIONS = exampleList(`/v1/assets/${FP_PATH}/aibom/versions`, [
  {
    id: BOM_ID,
    object: 'aibom_version',
    fingerprint: EXAMPLE_FINGERPRINT,
    bom_version: 2,
    content_hash: EXAMPLE_AIBOM.content_hash,
    component_count: 2,
    current: true,
    created: T + 42,
  },
  {
    id: 'bom_01m7zq4h1c8e2r5t9w3y6b0d7f',
    object: 'aibom_version',
    fingerprint: EXAMPLE_FINGERPRINT,
    bom_version: 1,
    content_hash: '9a2c4e6f8b0d1f3a5c7e9b1d3f5a7c9e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a',
    component_count: 1,
    current: false,
    created: T - 86400 * 12,
  },
] satisfies AiBomVersion[]);

export const EXAMPLE_AIBOM_DIFF: AiBomDiff = {
  object: 'aibom_diff',
  fingerprint: EXAMPLE_FINGERPRINT,
  from_version: 1,
  to_version: 2,
  components: {
    added: [{ type: 'model', name: 'meta-llama/Llama-3.1-8B-Instruct', version: null }],
    removed: [],
    changed: [
      {
        type: 'model',
        name: 'acme-ai/llama-3.1-8b-support-lora',
        changes: { version: { from: '1.1.0', to: '1.2.0' } },
      },
    ],
  },
  lineage: {
    relation: { from: null, to: 'adapter' },
    base_models_added: ['meta-llama/Llama-3.1-8B-Instruct'],
    base_models_removed: [],
  },
  primary_license: { from: null, to: 'llama3.1' },
  findings: { added: [{ rule_id: 'R01', title: EXAMPLE_FINDING.title, severity: 'high' }], removed: [] },
};

/** SPDX 2.3 tag-value, as GET …/aibom?format=spdx_tv renders it. */
export const EXAMPLE_SPDX_TAG_VALUE = [
  'SPDXVersion: SPDX-2.3',
  'DataLicense: CC0-1.0',
  'SPDXID: SPDXRef-DOCUMENT',
  'DocumentName: acme-ai/llama-3.1-8b-support-lora',
  'DocumentNamespace: https://risk.example.com/spdx/hf/acme-ai/llama-3.1-8b-support-lora/2',
  'Creator: Tool: risk-intelligence-enrichment',
  'Created: 2026-11-22T07:21:37Z',
  '',
  'PackageName: acme-ai/llama-3.1-8b-support-lora',
  'SPDXID: SPDXRef-Package-model',
  'PackageVersion: 1.2.0',
  'PackageLicenseDeclared: NOASSERTION',
].join('\n');

export const EXAMPLE_CYCLONEDX = {
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  serialNumber: 'urn:uuid:3b2f6c1e-9d4a-4e7b-8c5f-1a2d3e4f5a6b',
  version: 2,
  components: [
    { type: 'machine-learning-model', name: 'acme-ai/llama-3.1-8b-support-lora', version: '1.2.0' },
    { type: 'machine-learning-model', name: 'meta-llama/Llama-3.1-8B-Instruct' },
  ],
};

export const EXAMPLE_CREATE_WEBHOOK: CreateWebhookBody = {
  url: 'https://hooks.acme.example/risk',
  events: ['asset.risk_changed', 'threat.created'],
  description: 'SOC pipeline',
  metadata: { team: 'soc' },
};

export const EXAMPLE_WEBHOOK_ENDPOINT: WebhookEndpoint = {
  object: 'webhook_endpoint',
  id: 'we_01m81bye277js3qqwbbgm64xhw',
  url: 'https://hooks.acme.example/risk',
  events: ['asset.risk_changed', 'threat.created'],
  description: 'SOC pipeline',
  metadata: { team: 'soc' },
  status: 'enabled',
  disabled_reason: null,
  livemode: true,
  created: T,
  updated: T,
};

export const EXAMPLE_WEBHOOK_ENDPOINT_WITH_SECRET: WebhookEndpoint = {
  ...EXAMPLE_WEBHOOK_ENDPOINT,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4ZJbR8yIhd8=',
};

export const EXAMPLE_UPDATE_WEBHOOK: UpdateWebhookBody = { events: ['*'], description: 'SOC pipeline (all events)' };

export const EXAMPLE_WEBHOOK_DELIVERY: WebhookDelivery = {
  object: 'webhook_delivery',
  id: 'whd_01m81c8dkkb77xkmqh8h3t4500',
  event_id: 'evt_01m81c44xbbvtaq4wj8b29d5zz',
  event_type: 'asset.risk_changed',
  status: 'delivered',
  attempt_count: 2,
  last_response_status: 204,
  next_attempt_at: null,
  delivered_at: T + 49,
  created: T + 42,
  attempts: [
    {
      object: 'webhook_delivery_attempt',
      id: 'wha_01m81c8dkkb77xkmqh8h3t4501',
      attempt: 1,
      status: 'failed',
      response_status: 503,
      response_body: 'upstream connect error',
      error: null,
      latency_ms: 212,
      created: T + 43,
    },
    {
      object: 'webhook_delivery_attempt',
      id: 'wha_01m81c8dkkb77xkmqh8h3t4502',
      attempt: 2,
      status: 'succeeded',
      response_status: 204,
      response_body: '',
      error: null,
      latency_ms: 87,
      created: T + 49,
    },
  ],
};

/** What asset.enriched, asset.risk_changed carry as `data.object`: the enrichment's summary of the asset. */
export const EXAMPLE_ASSET_ENRICHED_OBJECT = {
  object: 'asset' as const,
  fingerprint: EXAMPLE_FINGERPRINT,
  asset_type: 'model' as const,
  enrichment_status: 'enriched' as const,
  intrinsic_risk_score: 62,
  intrinsic_risk_severity: 'high' as const,
  publisher: 'acme-ai',
  aibom: BOM_ID,
  bom_version: 2,
  enriched_at: T + 42,
};

export const EXAMPLE_EVENT: Event = {
  id: 'evt_01m81c44xbbvtaq4wj8b29d5zz',
  object: 'event',
  type: 'asset.risk_changed',
  created: T + 42,
  livemode: true,
  data: {
    object: EXAMPLE_ASSET_ENRICHED_OBJECT,
    previous_attributes: { intrinsic_risk_score: 20, intrinsic_risk_severity: 'low' },
  },
};

export const EXAMPLE_EVENT_LIST = exampleList(
  '/v1/events',
  [
    EXAMPLE_EVENT,
    {
      id: 'evt_01m81c44xbbvtaq4wj8b29d5zy',
      object: 'event',
      type: 'asset.enriched',
      created: T + 42,
      livemode: true,
      data: { object: EXAMPLE_ASSET_ENRICHED_OBJECT },
    },
  ] satisfies Event[],
  true,
);
