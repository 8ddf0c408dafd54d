// Client-reported scan results in an org's AI-BOM (docs/artifacts.md "Client-reported scan results"): the stored AI-BOM
// is shared by every org and holds the platform's verdicts only; at read time the org's own counting reports (a raising
// verdict for bytes the platform has not read through) are added to the file components whose SHA-256 they name, marked as
// the client's claim in every format. A reported benign is never written into a BOM, where it would read as a clearance.

/** One file's client-reported verdict as the AI-BOM formats state it. */
export interface BomClientReport {
  sha256: string;
  verdict: string;
  analyser: string;
  analyser_version: string;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The one sentence an SPDX annotation carries for a client-reported verdict. */
export function clientReportText(r: BomClientReport): string {
  return (
    `Client-reported verdict: ${r.verdict} (analyser ${r.analyser} ${r.analyser_version}), ` +
    "from this organisation's own scanner, not verified by the platform."
  );
}

/** How a format spells a hash entry: the algorithm's field and SHA-256 name, and the value's field. */
interface HashSpelling {
  algKey: string;
  alg: string;
  valueKey: string;
}
const CDX_HASH: HashSpelling = { algKey: 'alg', alg: 'SHA-256', valueKey: 'content' };
const SPDX_CHECKSUM: HashSpelling = { algKey: 'algorithm', alg: 'SHA256', valueKey: 'checksumValue' };

/** The SHA-256 values a list of hash entries holds, lower-cased. */
function sha256sOf(list: unknown, f: HashSpelling): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .filter(isObj)
    .filter((h) => h[f.algKey] === f.alg && typeof h[f.valueKey] === 'string')
    .map((h) => (h[f.valueKey] as string).toLowerCase());
}

function reportFor(hashes: string[], reports: ReadonlyMap<string, BomClientReport>): BomClientReport | undefined {
  for (const h of hashes) {
    const r = reports.get(h);
    if (r) return r;
  }
  return undefined;
}

/** The stored components (the `json` format, the SPDX 3.0.1 input) with `client_reported` on the files it names. */
export function componentsWithClientReports<C extends { hashes: ReadonlyArray<{ alg: string; content: string }> }>(
  components: readonly C[],
  reports: ReadonlyMap<string, BomClientReport>,
): Array<C & { client_reported?: Omit<BomClientReport, 'sha256'> }> {
  return components.map((c) => {
    const r = reportFor(sha256sOf(c.hashes, CDX_HASH), reports);
    return r
      ? { ...c, client_reported: { verdict: r.verdict, analyser: r.analyser, analyser_version: r.analyser_version } }
      : c;
  });
}

/** A CycloneDX 1.6 document with `risk:client_reported:*` properties on the file components the reports name. */
export function cycloneDxWithClientReports(doc: unknown, reports: ReadonlyMap<string, BomClientReport>): unknown {
  if (!isObj(doc) || !Array.isArray(doc.components) || reports.size === 0) return doc;
  return {
    ...doc,
    components: doc.components.map((c: unknown) => {
      if (!isObj(c)) return c;
      const r = reportFor(sha256sOf(c.hashes, CDX_HASH), reports);
      if (!r) return c;
      const properties = Array.isArray(c.properties) ? c.properties : [];
      return {
        ...c,
        properties: [
          ...properties,
          { name: 'risk:client_reported:verdict', value: r.verdict },
          { name: 'risk:client_reported:analyser', value: `${r.analyser} ${r.analyser_version}` },
        ],
      };
    }),
  };
}

/**
 * An SPDX 2.3 JSON document with an `OTHER` annotation by the client's tool on each package whose checksum a report
 * names (the tag-value rendering is made from this document, so it carries them too).
 */
export function spdxWithClientReports(doc: unknown, reports: ReadonlyMap<string, BomClientReport>): unknown {
  if (!isObj(doc) || !Array.isArray(doc.packages) || reports.size === 0) return doc;
  const created =
    isObj(doc.creationInfo) && typeof doc.creationInfo.created === 'string' ? doc.creationInfo.created : '';
  return {
    ...doc,
    packages: doc.packages.map((p: unknown) => {
      if (!isObj(p)) return p;
      const r = reportFor(sha256sOf(p.checksums, SPDX_CHECKSUM), reports);
      if (!r) return p;
      const annotations = Array.isArray(p.annotations) ? p.annotations : [];
      return {
        ...p,
        annotations: [
          ...annotations,
          {
            annotator: `Tool: ${r.analyser}-${r.analyser_version}`,
            annotationDate: created,
            annotationType: 'OTHER',
            comment: clientReportText(r),
          },
        ],
      };
    }),
  };
}
