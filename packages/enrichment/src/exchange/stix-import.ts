// STIX 2.1 bundle → threat drafts (docs/formats.md "STIX", docs/threats.md "STIX exchange"). Pure: which objects
// become threats, what each related object adds, and why the others are skipped. The API decides create or merge.
import { threatStixId } from './stix-ids';
import { parseStixPattern, StixPatternError, type StixComparison } from './stix-pattern';

type Obj = Record<string, unknown>;

export interface StixThreatDraft {
  stix_id: string;
  stix_type: string;
  modified: string | null;
  /** x_risk_threat_id, when the object's id is the one we export that threat under (our own export) */
  own_threat_id: string | null;
  /** our x_risk_* properties: the only source of category, severity, penalty and asset types on a merge */
  explicit: { category?: string; severity?: string; risk_penalty?: number; affected_asset_types?: string[] };
  fields: {
    category: string;
    severity: string;
    title: string;
    description: string | null;
    confidence: number | null;
    fingerprints: string[];
    attack_techniques: string[];
    cve_id: string | null;
    remediation: string | null;
    source: string | null;
  };
  stix: Obj;
  /** ids of the bundle's objects merged into this threat (relationships, attack-patterns, CVEs, malware, COAs) */
  related: string[];
}

export interface StixSkip {
  reason: string;
  message: string;
}

export interface StixImportPlan {
  drafts: StixThreatDraft[];
  skipped: Map<string, StixSkip>;
}

/** A pattern that is not STIX: the whole bundle is refused (400), naming the object. */
export class StixBundleError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

const CVE = /^CVE-\d{4}-\d{4,}$/;
const ATLAS = /^AML\.T\d{4}(\.\d{3})?$/;
const ATTACK = /^T\d{4}(\.\d{3})?$/;
const SHA256 = /^[0-9a-f]{64}$/i;
const HF = /^https?:\/\/(?:www\.)?huggingface\.co\/(datasets\/)?([\w.-]+\/[\w.-]+)\/?$/;
const NPM = /^https?:\/\/(?:www\.)?npmjs\.com\/package\/((?:@[\w.-]+\/)?[\w.-]+)\/?$/;
const PYPI = /^https?:\/\/pypi\.org\/project\/([\w.-]+)\/?$/;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim().length > 0 ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const refs = (o: Obj): Obj[] =>
  Array.isArray(o.external_references) ? (o.external_references as unknown[]).filter(isObj) : [];
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const cap = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The asset fingerprint a comparison identifies (docs/formats.md "Indicator patterns"), or null. */
export function fingerprintOf(c: StixComparison): string[] {
  if (c.negated || (c.operator !== '=' && c.operator !== 'IN')) return [];
  const path = c.path.join('.');
  const out: string[] = [];
  for (const v of c.values) {
    if (c.object_type === 'file' && /^hashes\.(SHA-256|SHA256|sha256|sha-256)$/.test(path) && SHA256.test(v))
      out.push(`sha256:${v.toLowerCase()}`);
    else if (c.object_type === 'url' && path === 'value') out.push(urlFingerprint(v));
    else if (c.object_type === 'domain-name' && path === 'value') out.push(`domain:${v.toLowerCase()}`);
    else if (c.object_type === 'x-risk-asset' && path === 'fingerprint' && v.length > 0) out.push(v);
  }
  return out;
}

/** Registry URLs become the registry's fingerprint (hf:, npm:, pypi:); any other URL is `url:<url>`. */
export function urlFingerprint(url: string): string {
  const hf = HF.exec(url);
  if (hf) return hf[1] ? `hf:datasets/${hf[2]}` : `hf:${hf[2]}`;
  const npm = NPM.exec(url);
  if (npm) return `npm:${npm[1]}`;
  const pypi = PYPI.exec(url);
  if (pypi) return `pypi:${pypi[1]}`;
  return `url:${url}`;
}

function cveOf(o: Obj): string | null {
  for (const r of refs(o)) {
    const id = str(r.external_id);
    if (id && CVE.test(id) && String(r.source_name).toLowerCase() === 'cve') return id;
  }
  const name = str(o.name);
  return name && CVE.test(name) ? name : null;
}

function techniquesOf(o: Obj): { atlas: string[]; attack: string[] } {
  const atlas: string[] = [];
  const attack: string[] = [];
  for (const r of refs(o)) {
    const id = str(r.external_id);
    const source = String(r.source_name ?? '').toLowerCase();
    if (id && ATLAS.test(id) && (source === 'mitre-atlas' || source === 'atlas')) atlas.push(id);
    else if (id && ATTACK.test(id) && source.startsWith('mitre-')) attack.push(id);
  }
  return { atlas, attack };
}

const RELATED_TYPES = new Set(['attack-pattern', 'vulnerability', 'malware', 'course-of-action']);

/** Plans the import of a bundle whose envelope and object shapes the contract has already checked. */
export function planStixImport(objects: readonly Obj[], bundleId: string): StixImportPlan {
  const byId = new Map(objects.map((o) => [String(o.id), o]));
  const skipped = new Map<string, StixSkip>();
  const links = new Map<string, Array<{ rel: Obj; other: string }>>();
  for (const o of objects) {
    if (o.type !== 'relationship') continue;
    const [s, t] = [String(o.source_ref), String(o.target_ref)];
    (links.get(s) ?? links.set(s, []).get(s)!).push({ rel: o, other: t });
    (links.get(t) ?? links.set(t, []).get(t)!).push({ rel: o, other: s });
  }
  const roots: Obj[] = [];
  const patterns = new Map<string, string[]>();
  objects.forEach((o, i) => {
    const id = String(o.id);
    if (o.revoked === true) return void skipped.set(id, { reason: 'revoked', message: 'The object is revoked.' });
    // our own export: whatever SDO carries a threat (indicator patterns still go through the parser below)
    if (typeof o.x_risk_category === 'string' && o.type !== 'indicator') return void roots.push(o);
    if (o.type !== 'indicator') return;
    if (o.pattern_type !== 'stix')
      return void skipped.set(id, {
        reason: 'unsupported_pattern_type',
        message: `pattern_type '${String(o.pattern_type)}' is not imported; only STIX patterns are.`,
      });
    const until = str(o.valid_until);
    if (until && Date.parse(until) < Date.now())
      return void skipped.set(id, { reason: 'expired', message: `The indicator expired at ${until}.` });
    if (strs(o.indicator_types).includes('benign'))
      return void skipped.set(id, { reason: 'benign', message: 'A benign indicator is not a threat.' });
    let comparisons: StixComparison[];
    try {
      comparisons = parseStixPattern(String(o.pattern));
    } catch (err) {
      if (err instanceof StixPatternError)
        throw new StixBundleError(
          `objects[${i}].pattern is not a STIX pattern: ${err.message}.`,
          `objects[${i}].pattern`,
        );
      throw err;
    }
    const fps = [...new Set(comparisons.flatMap(fingerprintOf))];
    if (fps.length === 0) {
      const seen = [...new Set(comparisons.map((c) => c.object_type))].join(', ');
      return void skipped.set(id, {
        reason: 'no_identifying_observable',
        message: `The pattern observes ${seen}; only equality on file SHA-256 hashes, URLs, domain names and x-risk-asset fingerprints identifies an asset.`,
      });
    }
    patterns.set(id, fps);
    roots.push(o);
  });
  const rootIds = new Set(roots.map((o) => String(o.id)));
  // a CVE with no imported indicator pointing at it is a threat of its own (matched through findings' CVE ids)
  for (const o of objects) {
    const id = String(o.id);
    if (o.type !== 'vulnerability' || rootIds.has(id) || skipped.has(id)) continue;
    const linkedToRoot = (links.get(id) ?? []).some((l) => rootIds.has(l.other));
    if (!linkedToRoot && cveOf(o)) {
      roots.push(o);
      rootIds.add(id);
    }
  }
  const drafts = roots.map((o) =>
    draftOf(o, { byId, links, fingerprints: patterns.get(String(o.id)) ?? [], bundleId }),
  );
  const used = new Set(drafts.flatMap((d) => [d.stix_id, ...d.related]));
  for (const o of objects) {
    const id = String(o.id);
    if (used.has(id) || skipped.has(id)) continue;
    skipped.set(id, skipReason(o));
  }
  return { drafts, skipped };
}

function skipReason(o: Obj): StixSkip {
  switch (o.type) {
    case 'relationship':
      return { reason: 'unrelated', message: 'The relationship connects no imported threat.' };
    case 'attack-pattern':
    case 'malware':
    case 'course-of-action':
      return {
        reason: 'unrelated',
        message: `A ${String(o.type)} adds to the threats whose indicators it is related to; none is in this bundle.`,
      };
    case 'vulnerability':
      return { reason: 'no_cve', message: 'The vulnerability has no CVE id (external reference source_name "cve").' };
    default:
      return { reason: 'unsupported_type', message: `Objects of type ${String(o.type)} are not imported.` };
  }
}

function draftOf(
  o: Obj,
  ctx: {
    byId: Map<string, Obj>;
    links: Map<string, Array<{ rel: Obj; other: string }>>;
    fingerprints: string[];
    bundleId: string;
  },
): StixThreatDraft {
  const id = String(o.id);
  const related: string[] = [];
  const atlas = new Set<string>();
  const attack = new Set<string>();
  let cve = o.type === 'vulnerability' ? cveOf(o) : null;
  let malware: Obj | null = o.type === 'malware' ? o : null;
  let remediation: string | null = null;
  const own = techniquesOf(o);
  own.atlas.forEach((t) => atlas.add(t));
  own.attack.forEach((t) => attack.add(t));
  for (const { rel, other } of ctx.links.get(id) ?? []) {
    const target = ctx.byId.get(other);
    if (!target || !RELATED_TYPES.has(String(target.type)) || target.revoked === true) continue;
    related.push(String(rel.id), other);
    const t = techniquesOf(target);
    t.atlas.forEach((x) => atlas.add(x));
    t.attack.forEach((x) => attack.add(x));
    if (target.type === 'vulnerability') cve = cve ?? cveOf(target);
    if (target.type === 'malware') malware = malware ?? target;
    if (target.type === 'course-of-action') remediation = remediation ?? str(target.description) ?? str(target.name);
  }
  const types = strs(o.indicator_types);
  const derivedCategory = malware
    ? 'malicious_package'
    : cve || o.type === 'vulnerability'
      ? 'vulnerable_dependency'
      : types.includes('compromised')
        ? 'supply_chain_compromise'
        : 'other';
  const hostile = !!malware || types.includes('malicious-activity') || types.includes('compromised');
  const explicit: StixThreatDraft['explicit'] = {};
  if (typeof o.x_risk_category === 'string') explicit.category = o.x_risk_category;
  if (typeof o.x_risk_severity === 'string') explicit.severity = o.x_risk_severity;
  if (typeof o.x_risk_penalty === 'number') explicit.risk_penalty = o.x_risk_penalty;
  if (Array.isArray(o.x_risk_affected_asset_types)) explicit.affected_asset_types = strs(o.x_risk_affected_asset_types);
  const ownThreat = str(o.x_risk_threat_id);
  const source =
    refs(o)
      .map((r) => str(r.url))
      .find((u): u is string => !!u) ??
    str(refs(o).find((r) => r.source_name === 'source')?.description) ??
    null;
  const description = str(o.description) ?? (malware && malware !== o ? str(malware.description) : null);
  const name = str(o.name) ?? (malware ? str(malware.name) : null) ?? cve ?? `${String(o.type)} ${id}`;
  const pattern = typeof o.pattern === 'string' && o.pattern.length <= 2000 ? o.pattern : undefined;
  return {
    stix_id: id,
    stix_type: String(o.type),
    modified: str(o.modified),
    own_threat_id: ownThreat && threatStixId(String(o.type), ownThreat) === id ? ownThreat : null,
    explicit,
    fields: {
      category: explicit.category ?? derivedCategory,
      severity: explicit.severity ?? (hostile ? 'high' : 'medium'),
      title: cap(name.trim(), 200),
      description: description ? cap(description, 10_000) : null,
      confidence: typeof o.confidence === 'number' ? Math.min(1, Math.max(0, o.confidence / 100)) : null,
      fingerprints: ctx.fingerprints,
      attack_techniques: [...atlas].sort(),
      cve_id: cve,
      remediation: remediation ? cap(remediation, 10_000) : null,
      source: source ? cap(source, 2000) : null,
    },
    stix: {
      id,
      type: o.type,
      modified: str(o.modified),
      ...(str(o.created_by_ref) ? { created_by_ref: o.created_by_ref } : {}),
      ...(types.length ? { indicator_types: types.slice(0, 20) } : {}),
      ...(attack.size ? { mitre_attack: [...attack].sort().slice(0, 50) } : {}),
      ...(pattern ? { pattern } : {}),
    },
    related: [...new Set(related)],
  };
}
