// SPDX 3.0.1 JSON-LD rendering of a stored AI-BOM with the Core, Software, AI and Dataset profiles (docs/formats.md
// "SPDX 3.0.1"; docs/enrichment.md "AI-BOM"). Pure: built at request time from what every AI-BOM row already holds
// (the component inventory, the SPDX 2.3 document's relationships and the primary package's `ai:` annotation), so
// AI-BOMs enriched before this format existed render too and nothing new is stored.
import { TOOL_NAME, TOOL_VERSION, artifactVerdictText, type BomArtifactVerdict, type BomComponent } from './model';
import { clientReportText, type BomClientReport } from './client-reported';

export const SPDX3_CONTEXT = 'https://spdx.org/rdf/3.0.1/spdx-context.jsonld';

/** A component as the AI-BOM row stores it (`components` column; docs/enrichment.md "AI-BOM"). */
export interface StoredComponent {
  type: BomComponent['type'];
  name: string;
  version: string | null;
  purl: string | null;
  license: string | null;
  supplier: string | null;
  download_location: string | null;
  hashes: Array<{ alg: string; content: string }>;
  spdx_id: string;
  primary: boolean;
  /** a file's platform verdict (docs/artifacts.md "AI-BOM"), absent on components without one */
  artifact?: BomArtifactVerdict;
  /** the reading org's own client-reported verdict, added at read time (./client-reported.ts), never stored */
  client_reported?: Omit<BomClientReport, 'sha256'>;
}

export interface Spdx3Input {
  /** the SPDX 2.3 document's namespace: element ids are `<namespace>#<SPDX 2.3 id>`, stable per AI-BOM version */
  namespace: string;
  document_name: string;
  /** ISO 8601 seconds, `Z` */
  created: string;
  components: readonly StoredComponent[];
  relationships: ReadonlyArray<{ from: string; type: string; to: string; comment?: string }>;
  /** the model's `ai:*` / `risk:*` properties (build.ts) */
  ai: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const CREATION = '_:creationinfo';

/** The SPDX 3 class and primary purpose of each component type. */
const CLASS: Record<BomComponent['type'], { type: string; purpose: string }> = {
  model: { type: 'ai_AIPackage', purpose: 'model' },
  dataset: { type: 'dataset_DatasetPackage', purpose: 'data' },
  library: { type: 'software_Package', purpose: 'library' },
  mcp_server: { type: 'software_Package', purpose: 'application' },
  tool: { type: 'software_Package', purpose: 'module' },
  file: { type: 'software_File', purpose: 'file' },
  agent: { type: 'software_Package', purpose: 'application' },
  application: { type: 'software_Package', purpose: 'application' },
  prompt: { type: 'software_Package', purpose: 'data' },
  container_image: { type: 'software_Package', purpose: 'container' },
  extension: { type: 'software_Package', purpose: 'application' },
  notebook: { type: 'software_File', purpose: 'source' },
};

const SAFETY = new Set(['serious', 'high', 'medium', 'low']);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const entries = (v: unknown): Json[] =>
  (Array.isArray(v) ? v : [])
    .filter((e): e is { key: unknown; value: unknown } => !!e && typeof e === 'object' && 'key' in e)
    .filter((e) => typeof e.key === 'string' && e.key.length > 0)
    .map((e) => ({ type: 'DictionaryEntry', key: e.key, ...(e.value == null ? {} : { value: String(e.value) }) }));

/** The SPDX 3 relationship type of an AI-BOM relationship (a dataset dependency is `trainedOn`). */
function relationshipType(r: Spdx3Input['relationships'][number], target: StoredComponent | undefined): string {
  if (r.type === 'DESCENDANT_OF') return 'descendantOf';
  if (r.type === 'CONTAINS') return 'contains';
  if (r.type === 'DEPENDS_ON' && target?.type === 'dataset') return 'trainedOn';
  return 'dependsOn';
}

/** The AI profile properties of the primary model (build.ts writes them under their SPDX 3 names). */
function aiProperties(ai: Record<string, unknown>): Json {
  const out: Json = {};
  const typeOfModel = strings(ai['ai:typeOfModel']);
  if (typeOfModel.length) out.ai_typeOfModel = typeOfModel;
  const domain = strings(ai['ai:domain']);
  if (domain.length) out.ai_domain = domain;
  const hyper = entries(ai['ai:hyperparameter']);
  if (hyper.length) out.ai_hyperparameter = hyper;
  const metric = entries(ai['ai:metric']);
  if (metric.length) out.ai_metric = metric;
  const training = text(ai['ai:informationAboutTraining']);
  if (training) out.ai_informationAboutTraining = training;
  const limitation = text(ai['ai:limitation']);
  if (limitation) out.ai_limitation = limitation;
  const safety = text(ai['ai:safetyRiskAssessment']);
  if (safety && SAFETY.has(safety)) out.ai_safetyRiskAssessment = safety;
  return out;
}

/** The SPDX 3.0.1 JSON-LD document of one AI-BOM. Element order and ids are deterministic. */
export function buildSpdx3(input: Spdx3Input): Json {
  const id = (local: string) => `${input.namespace}#${local}`;
  const byRef = new Map(input.components.map((c) => [c.spdx_id, c]));
  const agents = new Map<string, Json>();
  const agentId = (name: string): string => {
    const key = id(`Agent-${encodeURIComponent(name)}`);
    if (!agents.has(key)) agents.set(key, { type: 'Organization', spdxId: key, creationInfo: CREATION, name });
    return key;
  };
  const creator = agentId('Risk Intelligence');
  const toolId = id(`Tool-${TOOL_NAME}`);
  const elements: Json[] = [];
  const licences: Json[] = [];
  const relationships: Json[] = [];
  const annotations: Json[] = [];
  const primary = input.components.find((c) => c.primary) ?? input.components[0];
  for (const c of input.components) {
    const cls = CLASS[c.type] ?? CLASS.application;
    const el: Json = { type: cls.type, spdxId: id(c.spdx_id), creationInfo: CREATION, name: c.name };
    if (cls.type !== 'software_File') {
      if (c.version) el.software_packageVersion = c.version;
      if (c.download_location && /^[a-z][a-z0-9+.-]*:\S+$/i.test(c.download_location))
        el.software_downloadLocation = c.download_location;
      if (c.purl) el.software_packageUrl = c.purl;
    }
    el.software_primaryPurpose = cls.purpose;
    if (c.supplier) el.suppliedBy = agentId(c.supplier);
    const sha = c.hashes.filter((h) => h.alg === 'SHA-256' && /^[0-9a-f]{64}$/i.test(h.content));
    if (sha.length) el.verifiedUsing = sha.map((h) => ({ type: 'Hash', algorithm: 'sha256', hashValue: h.content }));
    if (c.type === 'dataset') el.dataset_datasetType = ['noAssertion'];
    if (c === primary && c.type === 'model') {
      Object.assign(el, aiProperties(input.ai));
      const score = input.ai['risk:score'];
      if (typeof score === 'number')
        el.comment = `Risk score ${score} (rules: ${strings(input.ai['risk:rules']).join(', ') || 'none'}).`;
    }
    elements.push(el);
    if (c.artifact)
      annotations.push({
        type: 'Annotation',
        spdxId: id(`Annotation-${c.spdx_id}`),
        creationInfo: CREATION,
        annotationType: 'review',
        subject: id(c.spdx_id),
        statement: artifactVerdictText(c.artifact),
      });
    if (c.client_reported)
      annotations.push({
        type: 'Annotation',
        spdxId: id(`Annotation-ClientReported-${c.spdx_id}`),
        creationInfo: CREATION,
        annotationType: 'other',
        subject: id(c.spdx_id),
        statement: clientReportText({ sha256: '', ...c.client_reported }),
      });
    if (c.license) {
      const licenceId = id(`License-${c.spdx_id}`);
      licences.push({
        type: 'simplelicensing_LicenseExpression',
        spdxId: licenceId,
        creationInfo: CREATION,
        simplelicensing_licenseExpression: c.license,
      });
      relationships.push(relationship(id, { from: c.spdx_id, type: 'hasDeclaredLicense', to: licenceId, n: 0 }));
    }
  }
  input.relationships.forEach((r, n) => {
    if (r.type === 'DESCRIBES' || !byRef.has(r.from) || !byRef.has(r.to)) return;
    const rel = relationship(id, { from: r.from, type: relationshipType(r, byRef.get(r.to)), to: id(r.to), n: n + 1 });
    if (r.comment) rel.comment = r.comment;
    relationships.push(rel);
  });
  const roots = primary ? [id(primary.spdx_id)] : [];
  const members = [...elements, ...licences, ...relationships, ...annotations].map((e) => e.spdxId as string);
  const bom: Json = {
    type: 'software_Sbom',
    spdxId: id('SBOM'),
    creationInfo: CREATION,
    name: input.document_name,
    software_sbomType: ['analyzed'],
    profileConformance: ['core', 'software', 'simpleLicensing', 'ai', 'dataset'],
    rootElement: roots,
    element: members,
  };
  const document: Json = {
    type: 'SpdxDocument',
    spdxId: id('DOCUMENT'),
    creationInfo: CREATION,
    name: input.document_name,
    profileConformance: ['core', 'software', 'simpleLicensing', 'ai', 'dataset'],
    rootElement: [id('SBOM')],
    element: [id('SBOM'), ...members, creator, toolId],
  };
  return {
    '@context': SPDX3_CONTEXT,
    '@graph': [
      {
        type: 'CreationInfo',
        '@id': CREATION,
        specVersion: '3.0.1',
        created: input.created,
        createdBy: [creator],
        createdUsing: [toolId],
      },
      ...agents.values(),
      { type: 'Tool', spdxId: toolId, creationInfo: CREATION, name: `${TOOL_NAME}-${TOOL_VERSION}` },
      document,
      bom,
      ...elements,
      ...licences,
      ...relationships,
      ...annotations,
    ],
  };
}

function relationship(id: (local: string) => string, r: { from: string; type: string; to: string; n: number }): Json {
  return {
    type: 'Relationship',
    spdxId: id(`Relationship-${r.n}-${r.type}-${r.from}`),
    creationInfo: CREATION,
    from: id(r.from),
    relationshipType: r.type,
    to: [r.to],
  };
}

/**
 * The SPDX 3 input from a stored AI-BOM: the SPDX 2.3 document (namespace, name, created, relationships and the
 * primary package's `ai:` annotation, which is the model's `ai` object serialized) and the component inventory.
 */
export function spdx3InputFromStored(spdx: Json, components: readonly StoredComponent[]): Spdx3Input {
  const creation = (spdx.creationInfo ?? {}) as Json;
  const packages = Array.isArray(spdx.packages) ? (spdx.packages as Json[]) : [];
  const primaryRef = components.find((c) => c.primary)?.spdx_id;
  const annotations = (packages.find((p) => p.SPDXID === primaryRef)?.annotations ?? []) as Json[];
  let ai: Record<string, unknown> = {};
  for (const a of annotations) {
    try {
      const parsed: unknown = JSON.parse(String(a.comment ?? ''));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) ai = parsed as Record<string, unknown>;
    } catch {
      // not the ai annotation
    }
  }
  const rels = Array.isArray(spdx.relationships) ? (spdx.relationships as Json[]) : [];
  return {
    namespace: String(spdx.documentNamespace ?? 'https://risk-intel.example/spdxdocs/aibom/unknown'),
    document_name: String(spdx.name ?? 'aibom'),
    created: String(creation.created ?? '1970-01-01T00:00:00Z'),
    components,
    relationships: rels.map((r) => ({
      from: String(r.spdxElementId),
      type: String(r.relationshipType),
      to: String(r.relatedSpdxElement),
      ...(typeof r.comment === 'string' ? { comment: r.comment } : {}),
    })),
    ai,
  };
}
