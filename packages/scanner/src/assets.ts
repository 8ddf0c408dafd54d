// From found files to assets (docs/scanner.md "Assets and fingerprints"): an MCP client configuration becomes one asset
// per server, the manifests and weight files of one model folder become one model, every other manifest one asset of
// its format's type, an installed AI package one package. Each asset keeps the files (and lines) it came from.
import path from 'node:path';
import type { ArtifactResult } from '@risk/artifacts';
import {
  analyze,
  type ArtifactRef,
  type ArtifactVerdictRecord,
  type AssetType,
  type EnrichmentInput,
} from '@risk/enrichment';
import { ManifestDocument } from '@risk/enrichment/src/formats';
import { serverMap } from '@risk/enrichment/src/formats/shapes';
import { normalisePythonName } from './ai-packages';
import { canonicalText, fingerprintOf } from './fingerprint';
// smol-toml's typings are ESM-only while it ships a CJS build (the engine loads it the same way)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parse: parseToml } = require('smol-toml') as { parse: (s: string, o?: { maxDepth?: number }) => unknown };

export interface AssetLocation {
  /** path relative to the scan root (or `~/…` on a machine scan) */
  path: string;
  line: number;
  /** the manifest format or model file kind found there */
  kind: string;
}

export interface ScannedAsset {
  fingerprint: string;
  asset_type: AssetType;
  name: string;
  version: string | null;
  locations: AssetLocation[];
  /** one engine input per manifest of the asset (analysed together as observations) */
  inputs: EnrichmentInput[];
  artifacts: ArtifactRef[];
  artifact_results: ArtifactResult[];
}

const TYPE_OF_FORMAT: Record<string, AssetType> = {
  hf_model_card: 'model',
  hf_dataset_card: 'dataset',
  hf_config: 'model',
  weight_index: 'model',
  file_listing: 'model',
  keras_config: 'model',
  tokenizer_config: 'model',
  onnx_genai_config: 'model',
  modelfile: 'model',
  mcp_client_config: 'mcp_server',
  agent_config: 'agent',
  mcp_server_json: 'mcp_server',
  mcpb_manifest: 'mcp_server',
  mcp_tools: 'mcp_server',
  npm_package: 'package',
  pyproject: 'package',
  requirements: 'package',
  setup_cfg: 'package',
  dockerfile: 'container_image',
  compose: 'container_image',
  browser_extension: 'extension',
  notebook: 'notebook',
};

/** Formats that describe the model folder they sit in (grouped with its weight files); a Modelfile stands alone. */
const MODEL_FOLDER_FORMATS = new Set([
  'hf_model_card',
  'hf_config',
  'weight_index',
  'file_listing',
  'keras_config',
  'tokenizer_config',
  'onnx_genai_config',
]);

/** A TOML configuration (Codex's `config.toml`), or null when it does not parse. Bounded nesting, as the engine's. */
function readToml(text: string): unknown {
  try {
    return parseToml(text, { maxDepth: 64 });
  } catch {
    return null;
  }
}

/** The 1-based line where `needle` first occurs in `text`, quoted (a JSON key) before bare (TOML, YAML); 1 when absent. */
export function lineOf(text: string, needle: string): number {
  const quoted = text.indexOf(`"${needle}"`);
  const at = quoted >= 0 ? quoted : text.indexOf(needle);
  if (at < 0) return 1;
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

interface ModelFolder {
  dir: string;
  name?: string;
  source_url?: string | null;
  manifests: Array<{ rel: string; text: string; format: string }>;
  files: Array<{ rel: string; result: ArtifactResult }>;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

export class AssetCollector {
  private byFingerprint = new Map<string, ScannedAsset>();
  private folders = new Map<string, ModelFolder>();

  /** All assets found so far, merged by fingerprint, in the order first found. */
  assets(): ScannedAsset[] {
    for (const folder of this.folders.values()) this.addFolder(folder);
    this.folders.clear();
    return [...this.byFingerprint.values()];
  }

  /** Adds an asset built elsewhere (an Ollama model), merged with any found before under its fingerprint. */
  add(a: ScannedAsset): void {
    this.put(a);
  }

  /** Names a model folder from outside its files (a Hugging Face cache folder names its repository). */
  nameFolder(dir: string, name: string, sourceUrl: string | null): void {
    const f = this.folder(dir);
    f.name = name;
    f.source_url = sourceUrl;
  }

  private put(a: ScannedAsset): void {
    const had = this.byFingerprint.get(a.fingerprint);
    if (!had) {
      this.byFingerprint.set(a.fingerprint, a);
      return;
    }
    // the same asset found again: one asset, every place it was found
    for (const loc of a.locations)
      if (!had.locations.some((l) => l.path === loc.path && l.line === loc.line)) had.locations.push(loc);
  }

  private folder(dir: string): ModelFolder {
    let f = this.folders.get(dir);
    if (!f) this.folders.set(dir, (f = { dir, manifests: [], files: [] }));
    return f;
  }

  addManifest(rel: string, text: string, format: string): void {
    if (MODEL_FOLDER_FORMATS.has(format)) {
      this.folder(path.posix.dirname(rel)).manifests.push({ rel, text, format });
      return;
    }
    if (format === 'mcp_client_config') {
      this.addClientConfig(rel, text, format);
      return;
    }
    const asset_type = TYPE_OF_FORMAT[format] ?? 'application';
    const base = path.posix.basename(rel);
    const input: EnrichmentInput = {
      fingerprint: '',
      asset_type,
      raw_manifest: text,
      metadata: { filename: base, path: rel, scanner_format: format },
    };
    const a = analyze(input);
    const name = a.display_name ?? (path.posix.basename(path.posix.dirname(rel)) || base);
    const version = a.parsed.version;
    const fingerprint =
      a.normalized_name &&
      (format === 'npm_package' || format === 'pyproject' || format === 'setup_cfg' || asset_type !== 'package')
        ? fingerprintOf(asset_type, a.ecosystem, a.normalized_name, version)
        : fingerprintOf(asset_type, format, canonicalText(text));
    input.fingerprint = fingerprint;
    input.name = name;
    input.version = version;
    this.put({
      fingerprint,
      asset_type,
      name,
      version,
      locations: [{ path: rel, line: 1, kind: format }],
      inputs: [input],
      artifacts: [],
      artifact_results: [],
    });
  }

  /** Every server of an MCP client configuration (and of Claude Code's per-project maps) as its own asset. */
  addClientConfig(rel: string, text: string, kind: string): void {
    const data = rel.endsWith('.toml')
      ? readToml(text)
      : new ManifestDocument(text, path.posix.basename(rel)).data()?.value;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return;
    const maps: Array<Record<string, unknown>> = [];
    const top = serverMap(data as Record<string, unknown>);
    if (top) maps.push(top.servers);
    const projects = (data as Record<string, unknown>).projects;
    if (projects && typeof projects === 'object' && !Array.isArray(projects))
      for (const p of Object.values(projects as Record<string, unknown>)) {
        const m = p && typeof p === 'object' ? serverMap(p as Record<string, unknown>) : null;
        if (m) maps.push(m.servers);
      }
    for (const servers of maps)
      for (const name of Object.keys(servers).sort()) {
        const entry = servers[name];
        if (!entry || typeof entry !== 'object') continue;
        const e = entry as Record<string, unknown>;
        const args = Array.isArray(e.args) ? e.args.filter((x): x is string => typeof x === 'string') : [];
        // identity: what runs (command and arguments) or where it is reached, under the name it is configured as
        // Gemini CLI names a streamable-HTTP endpoint `httpUrl`, Windsurf `serverUrl`: the engine reads `url`
        const url = str(e.url) ?? str(e.httpUrl) ?? str(e.serverUrl);
        const fingerprint = fingerprintOf('mcp_server', name, str(e.command), args.join('\0'), url);
        const raw = JSON.stringify({ mcpServers: { [name]: url && !e.url ? { ...e, url } : entry } }, null, 2);
        const input: EnrichmentInput = {
          fingerprint,
          asset_type: 'mcp_server',
          name,
          raw_manifest: raw,
          metadata: { filename: 'mcp.json', path: rel, scanner_format: kind },
        };
        this.put({
          fingerprint,
          asset_type: 'mcp_server',
          name,
          version: null,
          locations: [{ path: rel, line: lineOf(text, name), kind }],
          inputs: [input],
          artifacts: [],
          artifact_results: [],
        });
      }
  }

  addDistInfo(rel: string, name: string, version: string | null): void {
    const n = normalisePythonName(name);
    const fingerprint = fingerprintOf('package', 'pypi', n, version);
    const requirement = version ? `${name}==${version}` : name;
    this.put({
      fingerprint,
      asset_type: 'package',
      name,
      version,
      locations: [{ path: rel, line: 1, kind: 'dist_info' }],
      inputs: [
        {
          fingerprint,
          asset_type: 'package',
          name,
          version,
          source_url: `https://pypi.org/project/${encodeURIComponent(n)}/`,
          // the engine reads installed versions as a pinned requirement (its advisories match exact versions)
          raw_manifest: `${requirement}\n`,
          metadata: { filename: 'requirements.txt', path: rel, scanner_format: 'dist_info' },
        },
      ],
      artifacts: [],
      artifact_results: [],
    });
  }

  addModelFile(rel: string, result: ArtifactResult): void {
    this.folder(path.posix.dirname(rel)).files.push({ rel, result });
  }

  private addFolder(f: ModelFolder): void {
    const artifacts: ArtifactRef[] = f.files.map((x) => ({
      path: path.posix.basename(x.rel),
      sha256: x.result.sha256,
      size: x.result.size,
    }));
    const verdicts: ArtifactVerdictRecord[] = f.files.map((x) => verdictRecord(x.result));
    const dirName = f.dir === '.' ? 'model' : path.posix.basename(f.dir);
    // a folder's identity is its weights when it has any (the same bytes anywhere are the same model), else its manifests
    const fingerprint = artifacts.length
      ? fingerprintOf('model', ...artifacts.map((a) => a.sha256).sort())
      : fingerprintOf('model', ...f.manifests.map((m) => canonicalText(m.text)).sort());
    const inputs: EnrichmentInput[] = (f.manifests.length ? f.manifests : [null]).map((m) => ({
      fingerprint,
      asset_type: 'model',
      source_url: f.source_url ?? null,
      raw_manifest: m?.text ?? null,
      metadata: m ? { filename: path.posix.basename(m.rel), path: m.rel, scanner_format: m.format } : { path: f.dir },
      artifacts,
      artifact_verdicts: verdicts,
    }));
    const named = inputs.map((i) => analyze(i).display_name).find((n): n is string => !!n);
    const lone = !f.manifests.length && f.files.length === 1 ? path.posix.basename(f.files[0]!.rel) : null;
    const name = f.name ?? named ?? lone ?? dirName;
    for (const i of inputs) i.name = name;
    this.put({
      fingerprint,
      asset_type: 'model',
      name,
      version: null,
      locations: [
        ...f.manifests.map((m) => ({ path: m.rel, line: 1, kind: m.format })),
        ...f.files.map((x) => ({ path: x.rel, line: 1, kind: x.result.format })),
      ],
      inputs,
      artifacts,
      artifact_results: f.files.map((x) => x.result),
    });
  }
}

/** The analyser's result in the shape the engine reads verdicts in (as the platform's artifacts table holds them). */
export function verdictRecord(r: ArtifactResult): ArtifactVerdictRecord {
  return {
    sha256: r.sha256,
    verdict: r.verdict,
    format: r.format,
    findings: r.findings.map((f) => ({
      id: f.id,
      severity: f.severity,
      verdict: f.verdict,
      message: f.message,
      evidence: f.evidence ?? {},
    })),
    analyser_version: r.analyser_version,
    scanned_at: null,
  };
}
