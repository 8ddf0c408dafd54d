// CycloneDX 1.6 rendering of the AI-BOM model (docs/enrichment.md "AI-BOM").
import { BomComponent, BomModel, TOOL_NAME, TOOL_VERSION, uuidFromHash } from './model';
import { normalizeLicense } from '../license';
import type { ParsedManifest } from '../types';
import { uniq } from '../util';

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
  doc: { hash: string; created: string; benchmark: Record<string, unknown> | null; parsed: ParsedManifest },
): Record<string, unknown> {
  const { hash, created, ...extras } = doc;
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
    if (c.artifact)
      o.properties = [
        { name: 'risk:artifact:verdict', value: c.artifact.verdict },
        { name: 'risk:artifact:format', value: c.artifact.format },
        { name: 'risk:artifact:analyser_version', value: c.artifact.analyser_version },
      ];
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
