// One AI-BOM of everything a scan found (docs/scanner.md "Formats"). The engine builds an AI-BOM per asset (the
// platform's builders, packages/enrichment/src/aibom); a scan merges them: each asset's document keeps its shape, its
// element ids get a per-asset prefix so two assets naming the same dataset stay distinct and every reference resolves.
import { createHash } from 'node:crypto';
import type { JudgedAsset } from '../judge';
import { TOOL } from '../tool';

type Json = Record<string, unknown>;

interface RefKeys {
  prefix: (id: string) => string;
  /** keys whose string value is an id */
  keys: ReadonlySet<string>;
  /** keys whose value is a list of ids */
  listKeys: ReadonlySet<string>;
}

function prefixRefs(value: unknown, r: RefKeys): unknown {
  const { prefix, keys, listKeys } = r;
  if (Array.isArray(value)) return value.map((v) => prefixRefs(v, r));
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) {
    if (keys.has(k) && typeof v === 'string') out[k] = prefix(v);
    else if (listKeys.has(k) && Array.isArray(v)) out[k] = v.map((x) => (typeof x === 'string' ? prefix(x) : x));
    else out[k] = prefixRefs(v, r);
  }
  return out;
}

/** A name-based UUID (version 5 layout) from the content, so the same scan gives the same serial number. */
function contentUuid(text: string): string {
  const h = createHash('sha1').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

const identity = (assets: readonly JudgedAsset[]): string =>
  assets.map((a) => `${a.fingerprint}:${a.aibom.content_hash}`).join('\n');

export function cycloneDx(assets: readonly JudgedAsset[], run: { name: string; created: string }): Json {
  const components: Json[] = [];
  const dependencies: Json[] = [];
  const rootRef = 'risk-scan-root';
  assets.forEach((a, i) => {
    const doc = prefixRefs(a.aibom.cyclonedx, {
      prefix: (id) => `a${i}-${id}`,
      keys: new Set(['bom-ref', 'ref']),
      listKeys: new Set(['dependsOn', 'provides']),
    }) as Json;
    const meta = (doc.metadata ?? {}) as Json;
    const main = { ...((meta.component ?? {}) as Json) };
    const inner = (doc.components ?? []) as Json[];
    if (inner.length) main.components = inner;
    main.properties = [
      ...(((main.properties as Json[] | undefined) ?? []) as Json[]),
      { name: 'risk:fingerprint', value: a.fingerprint },
      { name: 'risk:severity', value: a.severity },
      ...a.locations.slice(0, 20).map((l) => ({ name: 'risk:location', value: `${l.path}:${l.line}` })),
    ];
    components.push(main);
    dependencies.push(...((doc.dependencies ?? []) as Json[]));
  });
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: `urn:uuid:${contentUuid(identity(assets))}`,
    version: 1,
    metadata: {
      timestamp: run.created,
      tools: { components: [{ type: 'application', name: TOOL.name, version: TOOL.version }] },
      component: { type: 'application', 'bom-ref': rootRef, name: run.name },
    },
    components,
    dependencies: [{ ref: rootRef, dependsOn: components.map((c) => c['bom-ref'] as string) }, ...dependencies],
  };
}

export function spdx(assets: readonly JudgedAsset[], run: { name: string; created: string }): Json {
  const packages: Json[] = [];
  const relationships: Json[] = [];
  const licences = new Map<string, Json>();
  assets.forEach((a, i) => {
    const doc = prefixRefs(a.aibom.spdx, {
      prefix: (id) => (id.startsWith('SPDXRef-') && id !== 'SPDXRef-DOCUMENT' ? `SPDXRef-a${i}-${id.slice(8)}` : id),
      keys: new Set(['SPDXID', 'spdxElementId', 'relatedSpdxElement']),
      listKeys: new Set(),
    }) as Json;
    packages.push(...((doc.packages ?? []) as Json[]));
    relationships.push(...((doc.relationships ?? []) as Json[]));
    for (const l of (doc.hasExtractedLicensingInfos ?? []) as Json[])
      if (!licences.has(String(l.licenseId))) licences.set(String(l.licenseId), l);
  });
  const uuid = contentUuid(identity(assets));
  const out: Json = {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: `aibom-scan-${run.name}`,
    documentNamespace: `https://risk-intel.example/spdxdocs/scan/${uuid}`,
    creationInfo: { creators: [`Tool: ${TOOL.name}-${TOOL.version}`], created: run.created },
    packages,
    relationships,
  };
  if (licences.size) out.hasExtractedLicensingInfos = [...licences.values()];
  return out;
}
