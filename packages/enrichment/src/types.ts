import { ASSET_TYPE_VALUES, type ARTIFACT_VERDICTS, type RiskSeverity } from '@risk/contracts';
import type { ToolBaseline } from './drift';
import type { Truncation } from './limits';
import type { AdvisoryRecord } from './advisories/osv';
import type { FormatId } from './formats/registry';
// the asset types (docs/public-api.md "Signals and assets") and the five severities are defined once, in @risk/contracts
export const ASSET_TYPES = ASSET_TYPE_VALUES;
export type AssetType = (typeof ASSET_TYPES)[number];
export type Severity = RiskSeverity;

export interface EnrichmentInput {
  fingerprint: string;
  asset_type: AssetType;
  name?: string | null;
  version?: string | null;
  source_url?: string | null;
  raw_manifest?: string | null;
  metadata?: Record<string, unknown> | null;
  /**
   * The advisories R23 matches against (docs/advisories.md "Enrichment"): the worker passes the candidates it read
   * for the asset's packages in one query; absent, the curated feed shipped with the engine is used.
   */
  advisories?: readonly AdvisoryRecord[] | null;
  /** the files the signal names by content hash (`artifacts` on a signal; docs/artifacts.md "Judgement") */
  artifacts?: readonly ArtifactRef[] | null;
  /**
   * The platform's own verdicts for the hashes the asset names (the shared `artifacts` table; docs/artifacts.md
   * "Judgement"): the worker reads them in one query and passes them in. Never a verdict a client reported.
   */
  artifact_verdicts?: readonly ArtifactVerdictRecord[] | null;
}

/** One file a signal names: its path in the asset, its SHA-256 (64 lowercase hex) and its size in bytes. */
export interface ArtifactRef {
  path: string;
  sha256: string;
  size: number;
}

/** The verdicts the artifact analyser gives (docs/artifacts.md "Verdicts"); the list is the API contract's. */
export type ArtifactVerdictValue = (typeof ARTIFACT_VERDICTS)[number];

/** One analyser finding as stored with a verdict: its id, message and evidence (callable, member, offset, excerpt). */
export interface ArtifactVerdictFinding {
  id: string;
  severity?: string;
  verdict?: string;
  message: string;
  evidence: { callable?: string; member?: string; offset?: number; excerpt?: string };
}

/** The platform's verdict for one hash, as the artifacts store reads it. */
export interface ArtifactVerdictRecord {
  sha256: string;
  verdict: ArtifactVerdictValue;
  format: string;
  findings: readonly ArtifactVerdictFinding[];
  analyser_version: string;
  scanned_at: string | null;
}

export interface FindingDraft {
  rule_id: string;
  title: string;
  description: string;
  severity: Severity;
  category: string;
  confidence: number;
  evidence: Record<string, unknown>;
  capabilities: string[];
  attack_techniques: string[];
  cve_ids: string[];
  threat_ids: string[];
  remediation: string | null;
  weight: number;
  benchmark?: Record<string, unknown> | null;
}

export interface ScoredFinding extends FindingDraft {
  score_contribution: number;
}

export interface MatchedThreat {
  id: string;
  title: string;
  category: string;
  severity: Severity;
  risk_penalty: number;
  cve_id: string | null;
  attack_techniques: string[];
  remediation: string | null;
}

export interface PublisherContext {
  org_count: number;
  signal_count: number;
  first_seen: string;
}

export interface FinalizeContext {
  threats: MatchedThreat[];
  publisher: PublisherContext;
  now: string;
  /** the asset's tool baseline from earlier observations (docs/drift.md), read by the caller; absent: none */
  tool_baseline?: ToolBaseline | null;
}

/** A manifest format's id (the format registry, src/formats/registry.ts), or `empty` when nothing was submitted. */
export type ManifestKind = 'empty' | FormatId;

/** A container definition (Dockerfile or one compose service) as src/formats.ts reads it. */
export interface ContainerSpec {
  path: string;
  image: string | null;
  privileged: boolean;
  network_host: boolean;
  pid_host: boolean;
  cap_add: string[];
  host_mounts: string[];
  /** shell text the container runs at build (RUN) or start (command/entrypoint) */
  commands: string[];
  /** compose `ports` published on every host interface (no host IP, or 0.0.0.0) */
  published_ports?: string[];
  /** compose `security_opt` entries that switch a confinement profile off (`seccomp:unconfined`, `label:disable`) */
  unconfined?: string[];
  /** a compose service with a `build` section: its `image` may be the name the built image is tagged with */
  built?: boolean;
}

/** A browser extension manifest.json (MV2/MV3). */
export interface ExtensionSpec {
  manifest_version: number;
  permissions: string[];
  host_permissions: string[];
  content_script_matches: string[];
}

export interface Dependency {
  ecosystem: 'npm' | 'pypi' | 'go';
  name: string;
  spec: string;
  path: string;
}
export interface ModelFile {
  path: string;
  size?: number;
  sha256?: string;
}
export interface ToolDef {
  name: string;
  description: string;
  inputSchema: unknown;
  annotations: Record<string, unknown> | null;
  server?: string;
}
export interface McpServerEntry {
  name: string;
  path: string;
  command: string | null;
  args: string[];
  env: Record<string, string>;
  url: string | null;
  transport: string | null;
  headers: Record<string, string>;
  registry: string | null;
  identifier: string | null;
  version: string | null;
  secretEnv: string[];
  /** registry environment variables declared `isRequired: false`: the server runs without them */
  optionalEnv?: string[];
  /** MCPB `user_config` switches (`enable_…`, "Allow …") whose default turns them on: features the server starts
   * with unless the user turns them off; `text` is the key's words, title and description */
  enabledOptions?: Array<{ key: string; text: string }>;
}

/** Everything the parsers extract from raw_manifest + input fields + metadata. */
export interface ParsedManifest {
  kind: ManifestKind;
  format: 'json' | 'yaml' | 'toml' | 'markdown' | 'text' | 'none';
  parse_errors: string[];
  name: string | null;
  version: string | null;
  description: string | null;
  licenses: string[];
  license_name: string | null;
  license_text: string | null;
  card: Record<string, unknown> | null;
  body: string | null;
  base_models: string[];
  base_model_relation: string | null;
  datasets: string[];
  tags: string[];
  pipeline_tag: string | null;
  library_name: string | null;
  model_index: unknown;
  config: {
    architectures: string[];
    model_type: string | null;
    name_or_path: string | null;
    auto_map: Record<string, unknown> | null;
    transformers_version: string | null;
  } | null;
  files: ModelFile[];
  dependencies: Dependency[];
  servers: McpServerEntry[];
  tools: ToolDef[];
  scripts: Record<string, string>;
  modelfile: {
    from: string | null;
    adapters: string[];
    system: string | null;
    template: string | null;
    license: string | null;
    parameters: Record<string, string>;
  } | null;
  repository_url: string | null;
  homepage: string | null;
  mcp_name: string | null;
  authors: string[];
  pickle_imports: string[];
  chat_template: string | null;
  keras_config: unknown;
  custom_ops: string[];
  commit: string | null;
  raw_json: unknown;
  /** Dockerfile stages / compose services (src/formats.ts) */
  containers?: ContainerSpec[];
  extension?: ExtensionSpec;
  /** requirement lines fetched from a URL or VCS, or editable installs, as written; `pinned` when fixed by something
   * other than the line itself (a lock's integrity hash, a commit `rev` in pyproject sources) */
  url_requirements?: Array<{ line: string; path: string; editable: boolean; pinned?: boolean }>;
  /** notebook code cells' text (capped) */
  notebook_code?: string;
  /**
   * Lines of a line-based manifest (requirements) that are not valid entries: skipped, never fatal; their line numbers
   * (at most LIMITS.evidence_items) and how many there were
   */
  skipped_lines?: { lines: number[]; total: number };
  /** how the format was recognised: its confidence and the runner-up's (src/formats/registry.ts) */
  recognition?: { confidence: number; runner_up: { format: string; confidence: number } | null };
  /** what LIMITS cut (src/limits.ts), reported as an `analysis_truncated` finding */
  truncated: Truncation[];
}
