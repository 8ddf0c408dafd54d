// The AI-BOM model: the normalized inventory every rendering (SPDX JSON, tag-value, CycloneDX) is built from
// (docs/enrichment.md "AI-BOM").
import { createHash } from 'node:crypto';
import { normalizeLicense } from '../license';
import type { ParsedManifest, Severity } from '../types';
import { storableString } from '../limits';
import { stableStringify, trimChar } from '../util';

export const TOOL_NAME = 'risk-enrichment';
export const TOOL_VERSION = '1.0.0';
export const NAMESPACE_BASE = 'https://risk-intel.example/spdxdocs/aibom';

export interface BomComponent {
  ref: string; // SPDX id
  type:
    | 'model'
    | 'dataset'
    | 'library'
    | 'mcp_server'
    | 'tool'
    | 'file'
    | 'agent'
    | 'application'
    | 'prompt'
    | 'container_image'
    | 'extension'
    | 'notebook';
  name: string;
  version: string | null;
  purl: string | null;
  license: string | null; // SPDX expression or LicenseRef
  license_raw: string | null;
  supplier: string | null;
  download_location: string | null;
  hashes: Array<{ alg: 'SHA-256'; content: string }>;
  primary: boolean;
  /**
   * A file whose hash the platform's analyser judged (docs/artifacts.md "AI-BOM"): its verdict, the format it read and
   * the analyser version. Absent when there is no platform verdict, so AI-BOMs without artifacts keep their hash.
   */
  artifact?: BomArtifactVerdict;
}

/** The platform verdict of a file component, as every AI-BOM format lists it. */
export interface BomArtifactVerdict {
  verdict: string;
  format: string;
  analyser_version: string;
}

/** The one sentence an SPDX annotation or comment carries for a file's verdict. */
export function artifactVerdictText(a: BomArtifactVerdict): string {
  return `Artifact verdict: ${a.verdict} (format ${a.format}, analyser ${a.analyser_version}).`;
}

/**
 * A component with nothing known beyond what `known` says (no licence, supplier, hashes; not primary).
 * Fields stay in BomComponent's order, so the stored AI-BOM JSON keeps its shape.
 */
export function bomComponent(
  known: Pick<BomComponent, 'ref' | 'type' | 'name'> & Partial<Omit<BomComponent, 'ref' | 'type' | 'name'>>,
): BomComponent {
  return {
    ref: known.ref,
    type: known.type,
    name: known.name,
    version: known.version ?? null,
    purl: known.purl ?? null,
    license: known.license ?? null,
    license_raw: known.license_raw ?? null,
    supplier: known.supplier ?? null,
    download_location: known.download_location ?? null,
    hashes: known.hashes ?? [],
    primary: known.primary ?? false,
  };
}
export interface Lineage {
  base_models: Array<{ id: string; relation: string }>;
  relation: string;
  parents: string[];
  datasets: string[];
}
export interface BomModel {
  components: BomComponent[];
  relationships: Array<{
    from: string;
    type: 'DESCRIBES' | 'DESCENDANT_OF' | 'DEPENDS_ON' | 'CONTAINS';
    to: string;
    comment?: string;
  }>;
  lineage: Lineage | null;
  ai: Record<string, unknown>;
  extracted_licenses: Array<{ id: string; text: string; name: string }>;
  document_name: string;
  fingerprint: string;
  risk: { score: number; severity: Severity; rules: string[] };
}

export function slug(s: string): string {
  return trimChar(s.replace(/[^A-Za-z0-9.-]+/g, '-'), '-').slice(0, 100) || 'x';
}
/** encodeURIComponent that cannot throw: a lone surrogate (JSON `\ud800`) becomes U+FFFD first. */
export function uriComponent(s: string): string {
  return encodeURIComponent(storableString(s));
}
function enc(s: string): string {
  return uriComponent(s).replace(/%40/g, '@');
}
export function purlFor(eco: string | null, name: string, version: string | null): string | null {
  const v = version ? `@${uriComponent(version)}` : '';
  if (eco === 'npm') {
    const m = /^@([^/]+)\/(.+)$/.exec(name);
    return m && m[1] && m[2] ? `pkg:npm/%40${enc(m[1])}/${enc(m[2])}${v}` : `pkg:npm/${enc(name)}${v}`;
  }
  if (eco === 'pypi') return `pkg:pypi/${enc(name.toLowerCase().replace(/[._]+/g, '-'))}${v}`;
  if (eco === 'huggingface') {
    const [ns, n] = name.split('/');
    if (!ns || !n) return null;
    return `pkg:huggingface/${enc(ns)}/${enc(n)}${version && /^[0-9a-f]{7,40}$/i.test(version) ? `@${version.toLowerCase()}` : ''}`;
  }
  if (eco === 'go') return `pkg:golang/${name.split('/').map(enc).join('/')}${v}`;
  if (eco === 'oci') return `pkg:oci/${enc(name.split('/').pop() ?? name)}${v}`;
  return null;
}

export const TYPE_FOR_ASSET: Record<string, BomComponent['type']> = {
  model: 'model',
  dataset: 'dataset',
  mcp_server: 'mcp_server',
  agent: 'agent',
  package: 'library',
  prompt: 'prompt',
  application: 'application',
  extension: 'extension',
  notebook: 'notebook',
  container_image: 'container_image',
};

export function licenseOf(raws: string[]): {
  expr: string | null;
  raw: string | null;
  refs: Array<{ id: string; text: string; name: string }>;
} {
  if (raws.length === 0) return { expr: null, raw: null, refs: [] };
  const parts: string[] = [];
  const refs: Array<{ id: string; text: string; name: string }> = [];
  for (const r of raws) {
    const i = normalizeLicense(r);
    if (i.spdx) parts.push(i.spdx.includes(' ') ? `(${i.spdx})` : i.spdx);
    else if (i.license_ref) {
      parts.push(i.license_ref);
      refs.push({
        id: i.license_ref,
        name: r,
        text: `Declared licence "${r}" (not on the SPDX License List); see the asset's licence file.`,
      });
    }
  }
  const expr = parts.length === 1 ? ((parts[0] ?? null)?.replace(/^\((.*)\)$/, '$1') ?? null) : parts.join(' AND ');
  return { expr, raw: raws.join(', '), refs };
}

/** HF infers base_model_relation when absent; mirror that from the signals available offline. */
export function inferRelation(p: ParsedManifest, name: string): string {
  if (p.base_models.length > 1) return 'merge';
  const hints = [name, ...p.tags, p.library_name ?? ''].join(' ').toLowerCase();
  if (
    /\b(lora|qlora|peft|adapter)\b|-lora\b/.test(hints) ||
    p.files.some((f) => /adapter_(model|config)\.|lora/i.test(f.path))
  )
    return 'adapter';
  if (
    /\b(gguf|gptq|awq|exl2|int4|int8|4bit|8bit|quantized)\b|-(gguf|gptq|awq|int4|int8)\b/.test(hints) ||
    p.files.some((f) => /\.gguf$/i.test(f.path))
  )
    return 'quantized';
  if (/\bmerge(kit|d)?\b/.test(hints)) return 'merge';
  // a Modelfile FROM another model only sets prompts/parameters: the HF vocabulary has no word for that
  return p.kind === 'modelfile' ? 'unknown' : 'finetune';
}

export function uniqBy<T>(xs: T[], k: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => (seen.has(k(x)) ? false : (seen.add(k(x)), true)));
}

export function contentHash(m: BomModel): string {
  return createHash('sha256').update(stableStringify(m)).digest('hex');
}
export function uuidFromHash(hex: string): string {
  const h = hex.slice(0, 32).split('');
  h[12] = '5';
  h[16] = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}
export function isoSeconds(now: string): string {
  const t = Date.parse(now);
  return (Number.isFinite(t) ? new Date(t) : new Date(0)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
