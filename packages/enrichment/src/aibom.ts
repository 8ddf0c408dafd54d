import { createHash } from 'node:crypto';
import { normalizeLicense } from './license';
import type { EnrichmentInput, ParsedManifest, Severity } from './types';
import { LIMITS, storableString } from './limits';
import { stableStringify, trimChar, uniq } from './util';

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
}

/**
 * A component with nothing known beyond what `known` says (no licence, supplier, hashes; not primary).
 * Fields stay in BomComponent's order, so the stored AI-BOM JSON keeps its shape.
 */
function bomComponent(
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

function slug(s: string): string {
  return trimChar(s.replace(/[^A-Za-z0-9.-]+/g, '-'), '-').slice(0, 100) || 'x';
}
/** encodeURIComponent that cannot throw: a lone surrogate (JSON `\ud800`) becomes U+FFFD first. */
function uriComponent(s: string): string {
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

const TYPE_FOR_ASSET: Record<string, BomComponent['type']> = {
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

function licenseOf(raws: string[]): {
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

export function buildBomModel(
  input: EnrichmentInput,
  p: ParsedManifest,
  ctx: {
    ecosystem: string | null;
    publisher: string | null;
    name: string;
    risk: BomModel['risk'];
    benchmark?: Array<{ metric: string | null; dataset: string | null; value: unknown }>;
  },
): BomModel {
  const components: BomComponent[] = [];
  const rels: BomModel['relationships'] = [];
  const extracted: BomModel['extracted_licenses'] = [];
  const usedIds = new Set<string>();
  // next suffix to try per base id: ids only get taken, so the probe for a repeated name resumes where the last one
  // stopped (the retry loop from 2 each time was quadratic in the number of repeats)
  const nextSuffix = new Map<string, number>();
  const mkId = (prefix: string, n: string): string => {
    const base = `SPDXRef-${prefix}-${slug(n)}`;
    let id = base;
    let k = nextSuffix.get(base) ?? 2;
    if (usedIds.has(id)) {
      do id = `${base}-${k++}`;
      while (usedIds.has(id));
      nextSuffix.set(base, k);
    }
    usedIds.add(id);
    return id;
  };
  const type = TYPE_FOR_ASSET[input.asset_type] ?? 'application';
  const version = input.version ?? p.version ?? p.commit ?? null;
  const lic = licenseOf(p.licenses);
  extracted.push(...lic.refs);
  const hfName = ctx.ecosystem === 'huggingface' && ctx.name.includes('/');
  const primaryId = mkId(type === 'model' ? 'Model' : type === 'dataset' ? 'Dataset' : 'Asset', ctx.name);
  components.push({
    ref: primaryId,
    type,
    name: ctx.name,
    version,
    purl: purlFor(ctx.ecosystem, ctx.name, hfName ? (p.commit ?? version) : version),
    license: lic.expr,
    license_raw: lic.raw,
    supplier: ctx.publisher,
    download_location: input.source_url ?? (hfName ? `https://huggingface.co/${ctx.name}` : null),
    hashes: [],
    primary: true,
  });
  rels.push({ from: 'SPDXRef-DOCUMENT', type: 'DESCRIBES', to: primaryId });
  // lineage
  let lineage: Lineage | null = null;
  if (p.base_models.length) {
    const relation = p.base_model_relation ?? inferRelation(p, ctx.name);
    lineage = {
      base_models: p.base_models.map((b) => ({ id: b, relation })),
      relation,
      parents: [...p.base_models],
      datasets: [...p.datasets],
    };
    for (const b of uniq(p.base_models)) {
      const id = mkId('Model', b);
      const isHf = /^[\w.-]+\/[\w.-]+$/.test(b);
      components.push(
        bomComponent({
          ref: id,
          type: 'model',
          name: b,
          purl: isHf ? purlFor('huggingface', b, null) : null,
          supplier: isHf ? (b.split('/')[0] ?? null) : null,
          download_location: isHf ? `https://huggingface.co/${b}` : null,
        }),
      );
      rels.push({ from: primaryId, type: 'DESCENDANT_OF', to: id, comment: `base_model_relation: ${relation}` });
    }
  } else if (p.datasets.length) lineage = { base_models: [], relation: 'none', parents: [], datasets: [...p.datasets] };
  for (const d of uniq(p.datasets)) {
    const id = mkId('Dataset', d);
    const isHf = /^[\w.-]+(\/[\w.-]+)?$/.test(d);
    components.push(
      bomComponent({
        ref: id,
        type: 'dataset',
        name: d,
        download_location: isHf ? `https://huggingface.co/datasets/${d}` : null,
      }),
    );
    rels.push({ from: primaryId, type: 'DEPENDS_ON', to: id, comment: 'trainedOn (model card datasets)' });
  }
  for (const d of p.dependencies.slice(0, LIMITS.aibom_dependencies)) {
    if (d.path === 'version') continue;
    const pinned =
      d.ecosystem === 'npm'
        ? /^\d[\w.+-]*$/.test(d.spec)
          ? d.spec
          : null
        : (/^===?([\w.+!-]+)$/.exec(d.spec)?.[1] ?? null);
    const id = mkId('Package', `${d.ecosystem}-${d.name}`);
    components.push(
      bomComponent({
        ref: id,
        type: 'library',
        name: d.name,
        version: pinned ?? (d.spec || null),
        purl: purlFor(d.ecosystem, d.name, pinned),
      }),
    );
    rels.push({ from: primaryId, type: 'DEPENDS_ON', to: id, comment: `${d.path}: ${d.spec || '*'}` });
  }
  for (const s of p.servers) {
    if (p.kind === 'mcp_server_json' && s.registry) {
      // registry packages are distributions of the primary server
      const eco =
        s.registry === 'npm'
          ? 'npm'
          : s.registry === 'pypi'
            ? 'pypi'
            : s.registry === 'oci' || s.registry === 'docker'
              ? 'oci'
              : null;
      const id = mkId('Package', `${s.registry}-${s.identifier ?? s.name}`);
      components.push(
        bomComponent({
          ref: id,
          type: 'library',
          name: s.identifier ?? s.name,
          version: s.version,
          purl: s.identifier ? purlFor(eco, s.identifier, s.version) : null,
        }),
      );
      rels.push({ from: primaryId, type: 'DEPENDS_ON', to: id, comment: `distribution (${s.registry})` });
      continue;
    }
    const id = mkId('McpServer', s.name);
    const pkgArg = s.args.find((a) => !a.startsWith('-')) ?? null;
    const launcherEco =
      s.command === 'npx' || s.command === 'bunx' ? 'npm' : s.command === 'uvx' || s.command === 'pipx' ? 'pypi' : null;
    let purl: string | null = null;
    let ver: string | null = null;
    if (launcherEco && pkgArg) {
      const m = /^(@?[^@]+)(?:@(.+))?$/.exec(pkgArg);
      if (m && m[1]) {
        ver = m[2] && m[2] !== 'latest' ? m[2] : null;
        purl = purlFor(launcherEco, m[1], ver);
      }
    }
    components.push(
      bomComponent({
        ref: id,
        type: 'mcp_server',
        name: s.name,
        version: ver,
        purl,
        download_location: s.url ?? null,
      }),
    );
    rels.push({ from: primaryId, type: 'DEPENDS_ON', to: id, comment: `mcp server (${s.transport ?? 'stdio'})` });
  }
  for (const t of p.tools.slice(0, LIMITS.aibom_tools)) {
    const id = mkId('Tool', t.name);
    components.push(
      bomComponent({
        ref: id,
        type: 'tool',
        name: t.name,
      }),
    );
    rels.push({ from: primaryId, type: 'CONTAINS', to: id, comment: 'mcp tool' });
  }
  const seenFiles = new Set<string>();
  for (const f of p.files) {
    if (seenFiles.has(f.path)) continue;
    if (seenFiles.size >= LIMITS.aibom_files) break;
    seenFiles.add(f.path);
    const id = mkId('File', f.path);
    components.push(
      bomComponent({
        ref: id,
        type: 'file',
        name: f.path,
        hashes: f.sha256 ? [{ alg: 'SHA-256', content: f.sha256 }] : [],
      }),
    );
    rels.push({ from: primaryId, type: 'CONTAINS', to: id });
  }
  // `ai:<name>` keys are SPDX 3.0.1 AI-profile properties (ai_AIPackage) with their value shapes (string lists,
  // DictionaryEntry lists, vocabulary values), so an SPDX 3 export is a pure mapping; `hf:` and `risk:` keys
  // carry what the AI profile has no property for.
  const ai: Record<string, unknown> = {};
  const typeOfModel = uniq([p.config?.model_type ?? '', ...(p.config?.architectures ?? [])].filter(Boolean));
  if (typeOfModel.length) ai['ai:typeOfModel'] = typeOfModel;
  if (p.pipeline_tag) ai['ai:domain'] = [p.pipeline_tag];
  if (p.modelfile && Object.keys(p.modelfile.parameters).length) {
    ai['ai:hyperparameter'] = Object.keys(p.modelfile.parameters)
      .sort()
      .map((key) => ({ key, value: p.modelfile?.parameters[key] ?? '' }));
  }
  const metrics = (ctx.benchmark ?? []).filter((r) => r.metric && r.value !== null).slice(0, 50);
  if (metrics.length)
    ai['ai:metric'] = metrics.map((r) => ({
      key: r.dataset ? `${r.metric}@${r.dataset}` : r.metric,
      value: String(r.value),
    }));
  if (p.datasets.length)
    ai['ai:informationAboutTraining'] = `Datasets named in the model card: ${p.datasets.join(', ')}.`;
  if (p.tags.some((t) => /^(nsfw|not-for-all-audiences)$/i.test(t)))
    ai['ai:limitation'] = 'Tagged as not for all audiences (NSFW).';
  ai['ai:safetyRiskAssessment'] =
    ctx.risk.severity === 'critical' ? 'serious' : ctx.risk.severity === 'informational' ? 'low' : ctx.risk.severity;
  if (p.library_name) ai['hf:library_name'] = p.library_name;
  ai['risk:score'] = ctx.risk.score;
  ai['risk:rules'] = ctx.risk.rules;
  return {
    components,
    relationships: rels,
    lineage,
    ai,
    extracted_licenses: uniqBy(extracted, (x) => x.id),
    document_name: `aibom-${slug(ctx.name)}`,
    fingerprint: input.fingerprint,
    risk: ctx.risk,
  };
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

function uniqBy<T>(xs: T[], k: (x: T) => string): T[] {
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

const PURPOSE: Record<BomComponent['type'], string> = {
  model: 'OTHER',
  dataset: 'OTHER',
  library: 'LIBRARY',
  mcp_server: 'APPLICATION',
  tool: 'OTHER',
  file: 'FILE',
  agent: 'OTHER',
  application: 'APPLICATION',
  prompt: 'OTHER',
  container_image: 'CONTAINER',
  extension: 'APPLICATION',
  notebook: 'SOURCE',
};

export function buildSpdx(m: BomModel, hash: string, created: string): Record<string, unknown> {
  const tool = `Tool: ${TOOL_NAME}-${TOOL_VERSION}`;
  const packages = m.components.map((c) => {
    const pkg: Record<string, unknown> = { name: c.name, SPDXID: c.ref };
    if (c.version) pkg.versionInfo = c.version;
    pkg.supplier = c.supplier ? `Organization: ${c.supplier.replace(/[()\n]/g, ' ')}` : 'NOASSERTION';
    pkg.downloadLocation =
      c.download_location && /^(https?|git\+https?|git):\/\/\S+$/.test(c.download_location)
        ? c.download_location
        : 'NOASSERTION';
    pkg.filesAnalyzed = false;
    if (c.hashes.length) pkg.checksums = c.hashes.map((h) => ({ algorithm: 'SHA256', checksumValue: h.content }));
    pkg.licenseConcluded = 'NOASSERTION';
    pkg.licenseDeclared = c.license ?? 'NOASSERTION';
    pkg.copyrightText = 'NOASSERTION';
    if (c.purl)
      pkg.externalRefs = [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: c.purl }];
    else if (c.type === 'dataset' && /^[\w.-]+(\/[\w.-]+)?$/.test(c.name))
      pkg.externalRefs = [
        { referenceCategory: 'OTHER', referenceType: 'huggingface-dataset', referenceLocator: c.name },
      ];
    pkg.primaryPackagePurpose = PURPOSE[c.type];
    if (c.primary) {
      pkg.annotations = [
        { annotator: tool, annotationDate: created, annotationType: 'OTHER', comment: stableStringify(m.ai) },
      ];
    }
    return pkg;
  });
  const doc: Record<string, unknown> = {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: m.document_name,
    documentNamespace: `${NAMESPACE_BASE}/${uriComponent(m.fingerprint).replace(/%/g, '')}/${uuidFromHash(hash)}`,
    creationInfo: { creators: [tool, 'Organization: Risk Intelligence'], created },
    packages,
    relationships: m.relationships.map((r) => {
      const o: Record<string, unknown> = { spdxElementId: r.from, relationshipType: r.type, relatedSpdxElement: r.to };
      if (r.comment) o.comment = r.comment;
      return o;
    }),
  };
  if (m.extracted_licenses.length)
    doc.hasExtractedLicensingInfos = m.extracted_licenses.map((l) => ({
      licenseId: l.id,
      extractedText: l.text,
      name: l.name,
    }));
  return doc;
}

// ---------- tag-value ----------
const tv = (v: string): string => (v.includes('\n') ? `<text>${v}</text>` : v);

export function renderSpdxTagValue(spdx: Record<string, unknown>): string {
  const L: string[] = [];
  const s = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
  const ci = (spdx.creationInfo ?? {}) as Record<string, unknown>;
  L.push(
    `SPDXVersion: ${s(spdx.spdxVersion)}`,
    `DataLicense: ${s(spdx.dataLicense)}`,
    `SPDXID: ${s(spdx.SPDXID)}`,
    `DocumentName: ${tv(s(spdx.name))}`,
    `DocumentNamespace: ${s(spdx.documentNamespace)}`,
  );
  for (const c of (ci.creators as unknown[] | undefined) ?? []) L.push(`Creator: ${s(c)}`);
  L.push(`Created: ${s(ci.created)}`);
  const annotations: Array<{ target: string; a: Record<string, unknown> }> = [];
  for (const p of (spdx.packages as Array<Record<string, unknown>> | undefined) ?? []) {
    L.push('', `PackageName: ${tv(s(p.name))}`, `SPDXID: ${s(p.SPDXID)}`);
    if (p.versionInfo !== undefined) L.push(`PackageVersion: ${tv(s(p.versionInfo))}`);
    if (p.supplier !== undefined) L.push(`PackageSupplier: ${s(p.supplier)}`);
    L.push(`PackageDownloadLocation: ${s(p.downloadLocation)}`);
    if (p.filesAnalyzed !== undefined) L.push(`FilesAnalyzed: ${p.filesAnalyzed ? 'true' : 'false'}`);
    for (const c of (p.checksums as Array<Record<string, unknown>> | undefined) ?? [])
      L.push(`PackageChecksum: ${s(c.algorithm)}: ${s(c.checksumValue)}`);
    if (p.licenseConcluded !== undefined) L.push(`PackageLicenseConcluded: ${s(p.licenseConcluded)}`);
    if (p.licenseDeclared !== undefined) L.push(`PackageLicenseDeclared: ${s(p.licenseDeclared)}`);
    if (p.copyrightText !== undefined) L.push(`PackageCopyrightText: ${tv(s(p.copyrightText))}`);
    for (const r of (p.externalRefs as Array<Record<string, unknown>> | undefined) ?? []) {
      L.push(`ExternalRef: ${s(r.referenceCategory)} ${s(r.referenceType)} ${s(r.referenceLocator)}`);
      if (r.comment !== undefined) L.push(`ExternalRefComment: <text>${s(r.comment)}</text>`);
    }
    if (p.primaryPackagePurpose !== undefined)
      L.push(`PrimaryPackagePurpose: ${s(p.primaryPackagePurpose).replace(/_/g, '-')}`);
    for (const a of (p.annotations as Array<Record<string, unknown>> | undefined) ?? [])
      annotations.push({ target: s(p.SPDXID), a });
  }
  const ex = (spdx.hasExtractedLicensingInfos as Array<Record<string, unknown>> | undefined) ?? [];
  if (ex.length) L.push('');
  for (const e of ex) {
    L.push(`LicenseID: ${s(e.licenseId)}`, `ExtractedText: <text>${s(e.extractedText)}</text>`);
    if (e.name !== undefined) L.push(`LicenseName: ${tv(s(e.name))}`);
  }
  const rels = (spdx.relationships as Array<Record<string, unknown>> | undefined) ?? [];
  if (rels.length) L.push('', '## Relationships');
  for (const r of rels) {
    L.push(`Relationship: ${s(r.spdxElementId)} ${s(r.relationshipType)} ${s(r.relatedSpdxElement)}`);
    if (r.comment !== undefined) L.push(`RelationshipComment: <text>${s(r.comment)}</text>`);
  }
  for (const { target, a } of annotations) {
    L.push(
      '',
      `Annotator: ${s(a.annotator)}`,
      `AnnotationDate: ${s(a.annotationDate)}`,
      `AnnotationType: ${s(a.annotationType)}`,
      `SPDXREF: ${target}`,
      `AnnotationComment: <text>${s(a.comment)}</text>`,
    );
  }
  return L.join('\n') + '\n';
}

// ---------- CycloneDX 1.6 ----------
const CDX_TYPE: Record<BomComponent['type'], string> = {
  model: 'machine-learning-model',
  dataset: 'data',
  library: 'library',
  mcp_server: 'application',
  tool: 'application',
  file: 'file',
  agent: 'application',
  application: 'application',
  prompt: 'data',
  container_image: 'container',
  extension: 'application',
  notebook: 'file',
};

function cdxLicenses(expr: string | null): unknown[] | undefined {
  if (!expr) return undefined;
  if (/^[A-Za-z0-9.+-]+$/.test(expr) && !expr.startsWith('LicenseRef-')) return [{ license: { id: expr } }];
  if (expr.startsWith('LicenseRef-') && !expr.includes(' '))
    return [{ license: { name: expr.slice('LicenseRef-'.length) } }];
  return [{ expression: expr }];
}

export function buildCycloneDx(
  m: BomModel,
  hash: string,
  created: string,
  extras: { benchmark: Record<string, unknown> | null; parsed: ParsedManifest },
): Record<string, unknown> {
  const comp = (c: BomComponent): Record<string, unknown> => {
    const o: Record<string, unknown> = { type: CDX_TYPE[c.type], 'bom-ref': c.ref, name: c.name };
    if (c.version) o.version = c.version;
    if (c.supplier) o.supplier = { name: c.supplier };
    const lic = cdxLicenses(c.license);
    if (
      lic &&
      c.license &&
      /^[A-Za-z0-9.+-]+$/.test(c.license) &&
      !c.license.startsWith('LicenseRef-') &&
      normalizeLicense(c.license).spdx !== c.license
    )
      o.licenses = [{ license: { name: c.license } }];
    else if (lic) o.licenses = lic;
    if (c.purl) o.purl = c.purl;
    if (c.hashes.length) o.hashes = c.hashes.map((h) => ({ alg: h.alg, content: h.content }));
    if (c.download_location && /^https?:\/\//.test(c.download_location))
      o.externalReferences = [
        { type: c.type === 'dataset' || c.type === 'model' ? 'distribution' : 'website', url: c.download_location },
      ];
    if (c.type === 'model') {
      const p = extras.parsed;
      const mc: Record<string, unknown> = {};
      const params: Record<string, unknown> = {};
      if (c.primary) {
        if (p.pipeline_tag) params.task = p.pipeline_tag;
        if (p.config?.model_type) params.architectureFamily = p.config.model_type;
        if (p.config?.architectures[0]) params.modelArchitecture = p.config.architectures[0];
        const ds = m.components.filter((x) => x.type === 'dataset').map((x) => ({ ref: x.ref }));
        if (ds.length) params.datasets = ds;
        if (Object.keys(params).length) mc.modelParameters = params;
        const results =
          extras.benchmark && Array.isArray(extras.benchmark.results)
            ? (extras.benchmark.results as Array<Record<string, unknown>>)
            : [];
        const pm = results
          .filter((r) => r.value !== null && r.value !== undefined)
          .slice(0, 50)
          .map((r) => {
            const o2: Record<string, unknown> = { type: String(r.metric ?? 'metric'), value: String(r.value) };
            if (r.dataset) o2.slice = String(r.dataset);
            return o2;
          });
        if (pm.length) mc.quantitativeAnalysis = { performanceMetrics: pm };
        mc.properties = Object.keys(m.ai)
          .sort()
          .map((k) => ({
            name: k,
            value: typeof m.ai[k] === 'string' ? (m.ai[k] as string) : JSON.stringify(m.ai[k]),
          }));
        const ancestors = m.relationships
          .filter((r) => r.type === 'DESCENDANT_OF' && r.from === c.ref)
          .map((r) => m.components.find((x) => x.ref === r.to))
          .filter((x): x is BomComponent => !!x);
        if (ancestors.length)
          o.pedigree = {
            ancestors: ancestors.map((a) => {
              const ao: Record<string, unknown> = {
                type: 'machine-learning-model',
                'bom-ref': `${a.ref}-ancestor`,
                name: a.name,
              };
              if (a.purl) ao.purl = a.purl;
              return ao;
            }),
          };
      }
      o.modelCard = mc;
    }
    return o;
  };
  const primary = m.components.find((c) => c.primary);
  const others = m.components.filter((c) => !c.primary);
  const deps = new Map<string, string[]>();
  for (const r of m.relationships)
    if (r.type === 'DEPENDS_ON' || r.type === 'CONTAINS') {
      const list = deps.get(r.from);
      if (list) list.push(r.to);
      else deps.set(r.from, [r.to]);
    }
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: `urn:uuid:${uuidFromHash(hash)}`,
    version: 1,
    metadata: {
      timestamp: created,
      tools: { components: [{ type: 'application', name: TOOL_NAME, version: TOOL_VERSION }] },
      ...(primary ? { component: comp(primary) } : {}),
    },
    components: others.map(comp),
    dependencies: [...deps.entries()].map(([ref, dependsOn]) => ({ ref, dependsOn: uniq(dependsOn) })),
  };
}
