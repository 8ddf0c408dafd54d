// Threats → a STIX 2.1 bundle (docs/formats.md "STIX"). Pure and deterministic: ids are UUIDv5 of our ids
// (stix-ids.ts), timestamps are the threat's, objects are sorted, so the same threats export byte for byte the same
// and importing the export merges into them. What STIX has no property for travels in x_risk_* properties.
import { atlasTechnique } from '../atlas';
import { stixId, threatStixId, uuidV5 } from './stix-ids';
import { stixString } from './stix-pattern';

/** The threat fields the export reads (the API's threat object). */
export interface ExportableThreat {
  id: string;
  category: string;
  title: string;
  description: string | null;
  severity: string;
  confidence: number | null;
  affected_asset_types: readonly string[];
  fingerprints: readonly string[];
  attack_techniques: readonly string[];
  cve_id: string | null;
  remediation: string | null;
  source: string | null;
  risk_penalty: number;
  created_by_org: string;
  /** Unix seconds */
  created: number;
  updated: number;
}

type Obj = Record<string, unknown>;
/** Shared reference objects (a CVE, an ATLAS technique, an org) have no date of ours: one fixed timestamp. */
const EPOCH = '1970-01-01T00:00:00.000Z';
const iso = (unix: number) => new Date(unix * 1000).toISOString();
const SHA256 = /^sha256:([0-9a-f]{64})$/;
const HF = /^hf:([\w.-]+\/[\w.-]+)$/;
const HF_DATASET = /^hf:datasets\/([\w.-]+\/[\w.-]+)$/;
const NPM = /^npm:((?:@[\w.-]+\/)?[\w.-]+)$/;
const PYPI = /^pypi:([\w.-]+)$/;

/** One observation per fingerprint: a standard observable where one says the same thing, else x-risk-asset. */
export function observationFor(fp: string): string {
  const sha = SHA256.exec(fp);
  if (sha) return `[file:hashes.'SHA-256' = ${stixString(sha[1]!)}]`;
  const ds = HF_DATASET.exec(fp);
  if (ds) return `[url:value = ${stixString(`https://huggingface.co/datasets/${ds[1]}`)}]`;
  const hf = HF.exec(fp);
  if (hf) return `[url:value = ${stixString(`https://huggingface.co/${hf[1]}`)}]`;
  const npm = NPM.exec(fp);
  if (npm) return `[url:value = ${stixString(`https://www.npmjs.com/package/${npm[1]}`)}]`;
  const pypi = PYPI.exec(fp);
  if (pypi) return `[url:value = ${stixString(`https://pypi.org/project/${pypi[1]}/`)}]`;
  if (fp.startsWith('url:') && /^https?:\/\/\S+$/.test(fp.slice(4))) return `[url:value = ${stixString(fp.slice(4))}]`;
  if (fp.startsWith('domain:') && /^[a-z0-9.-]+$/.test(fp.slice(7)))
    return `[domain-name:value = ${stixString(fp.slice(7))}]`;
  return `[x-risk-asset:fingerprint = ${stixString(fp)}]`;
}

/** The properties every STIX domain object carries; `at` is [created, modified]. */
const common = (type: string, id: string, at: readonly [string, string]): Obj => ({
  type,
  spec_version: '2.1',
  id,
  created: at[0],
  modified: at[1],
});

/** The objects of one threat: its primary SDO, the shared CVE / technique objects, remediation and relationships. */
function threatObjects(t: ExportableThreat, identity: string): Obj[] {
  const type = t.fingerprints.length ? 'indicator' : t.cve_id ? 'vulnerability' : 'attack-pattern';
  const id = threatStixId(type, t.id);
  const [created, modified] = [iso(t.created), iso(t.updated)];
  const refs: Obj[] = [];
  if (type === 'vulnerability' && t.cve_id) refs.push({ source_name: 'cve', external_id: t.cve_id });
  if (t.source)
    refs.push(
      /^https?:\/\/\S+$/.test(t.source)
        ? { source_name: 'source', url: t.source }
        : { source_name: 'source', description: t.source },
    );
  const primary: Obj = {
    ...common(type, id, [created, modified]),
    created_by_ref: identity,
    name: t.title,
    ...(t.description ? { description: t.description } : {}),
    ...(t.confidence !== null ? { confidence: Math.round(t.confidence * 100) } : {}),
    ...(refs.length ? { external_references: refs } : {}),
  };
  if (type === 'indicator') {
    Object.assign(primary, {
      indicator_types: [t.category === 'supply_chain_compromise' ? 'compromised' : 'malicious-activity'],
      pattern: [...t.fingerprints].map(observationFor).join(' OR '),
      pattern_type: 'stix',
      pattern_version: '2.1',
      valid_from: created,
    });
  }
  Object.assign(primary, {
    x_risk_threat_id: t.id,
    x_risk_category: t.category,
    x_risk_severity: t.severity,
    x_risk_penalty: t.risk_penalty,
    // STIX lists are never empty: no asset types (= every type) is the property's absence
    ...(t.affected_asset_types.length ? { x_risk_affected_asset_types: [...t.affected_asset_types] } : {}),
  });
  const out: Obj[] = [primary];
  const relate = (source: string, rel: string, target: string) =>
    out.push({
      ...common('relationship', stixId('relationship', `${source}|${rel}|${target}`), [created, modified]),
      created_by_ref: identity,
      relationship_type: rel,
      source_ref: source,
      target_ref: target,
    });
  if (t.cve_id && type !== 'vulnerability') {
    const vuln = stixId('vulnerability', t.cve_id);
    out.push({
      ...common('vulnerability', vuln, [EPOCH, EPOCH]),
      name: t.cve_id,
      external_references: [{ source_name: 'cve', external_id: t.cve_id }],
    });
    relate(id, type === 'attack-pattern' ? 'targets' : 'related-to', vuln);
  }
  for (const technique of t.attack_techniques) {
    const known = atlasTechnique(technique);
    const ap = stixId('attack-pattern', `atlas:${technique}`);
    out.push({
      ...common('attack-pattern', ap, [EPOCH, EPOCH]),
      name: known?.name ?? technique,
      external_references: [
        { source_name: 'mitre-atlas', external_id: technique, ...(known ? { url: known.url } : {}) },
      ],
    });
    relate(id, type === 'indicator' ? 'indicates' : 'related-to', ap);
  }
  if (t.remediation) {
    const coa = stixId('course-of-action', `threat:${t.id}`);
    out.push({
      ...common('course-of-action', coa, [created, modified]),
      created_by_ref: identity,
      name: `Remediation: ${t.title}`.slice(0, 250),
      description: t.remediation,
    });
    relate(coa, 'mitigates', id);
  }
  return out;
}

/** A STIX 2.1 bundle of the threats: one identity per creating org, objects deduplicated and sorted by id. */
export function buildStixBundle(threats: readonly ExportableThreat[]): Obj {
  const objects = new Map<string, Obj>();
  for (const t of threats) {
    const identity = stixId('identity', `org:${t.created_by_org}`);
    objects.set(identity, {
      ...common('identity', identity, [EPOCH, EPOCH]),
      name: t.created_by_org,
      identity_class: 'organization',
    });
    for (const o of threatObjects(t, identity)) objects.set(String(o.id), o);
  }
  const sorted = [...objects.values()].sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
  const digest = sorted.map((o) => `${String(o.id)}@${String(o.modified)}`).join('\n');
  return { type: 'bundle', id: `bundle--${uuidV5(`bundle:${digest}`)}`, objects: sorted };
}
