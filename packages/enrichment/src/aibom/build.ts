// The AI-BOM model of one analysed manifest: the asset, its lineage, datasets, dependencies, MCP servers, tools and
// files, and the SPDX 3 AI-profile properties (docs/enrichment.md "AI-BOM").
import type { EnrichmentInput, ParsedManifest } from '../types';
import { LIMITS } from '../limits';
import { uniq } from '../util';
import {
  BomComponent,
  BomModel,
  Lineage,
  TYPE_FOR_ASSET,
  bomComponent,
  inferRelation,
  licenseOf,
  purlFor,
  slug,
  uniqBy,
} from './model';

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
  // the platform's verdicts for the named hashes (docs/artifacts.md "AI-BOM"): each file lists its SHA-256 (the CISA
  // minimum element "component hash") and, when the analyser judged those bytes, its verdict
  const verdicts = new Map((input.artifact_verdicts ?? []).map((v) => [v.sha256, v]));
  for (const f of p.files) {
    if (seenFiles.has(f.path)) continue;
    if (seenFiles.size >= LIMITS.aibom_files) break;
    seenFiles.add(f.path);
    const id = mkId('File', f.path);
    const component = bomComponent({
      ref: id,
      type: 'file',
      name: f.path,
      hashes: f.sha256 ? [{ alg: 'SHA-256', content: f.sha256 }] : [],
    });
    const v = f.sha256 ? verdicts.get(f.sha256) : undefined;
    if (v) component.artifact = { verdict: v.verdict, format: v.format, analyser_version: v.analyser_version };
    components.push(component);
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
