// SARIF 2.1.0 for code scanning (docs/scanner.md "SARIF"): the platform's own export (buildSarif in @risk/enrichment —
// rule metadata, levels, security-severity, stable partialFingerprints) with each result's location made physical:
// the file the asset was found in, with its line, relative to the scanned root (`%SRCROOT%`), as GitHub requires.
import { assetArtifactUri, buildSarif, type SarifAsset } from '@risk/enrichment';
import type { JudgedAsset } from '../judge';
import { TOOL } from '../tool';

type Json = Record<string, unknown>;

/** buildSarif reads only the fields it names, so the judged asset and its engine findings go in as they are. */
function toSarifAsset(a: JudgedAsset): SarifAsset {
  return { ...a, intrinsic_risk_score: a.score, intrinsic_risk_severity: a.severity };
}

/** The file a finding points at: the artifact it judged when it names one, else the asset's first location. */
function locationFor(a: JudgedAsset, evidence: unknown): { path: string; line: number } {
  const e = (evidence ?? {}) as Json;
  if (typeof e.sha256 === 'string') {
    const art = a.artifacts.find((x) => x.sha256 === e.sha256);
    const loc = art && a.locations.find((l) => l.path === art.path || l.path.endsWith(`/${art.path}`));
    if (loc) return loc;
  }
  return a.locations[0] ?? { path: '.', line: 1 };
}

/** A relative URI reference for a scanned path (`~/` of a machine scan kept as written, segments percent-encoded). */
function uriOf(p: string): string {
  return p
    .split('/')
    .map((s) => (s === '~' ? s : encodeURIComponent(s)))
    .join('/');
}

export function sarif(assets: readonly JudgedAsset[], automationId: string): Json {
  const log = buildSarif(assets.map(toSarifAsset), { automation_id: automationId });
  const run = (log.runs as Json[])[0]!;
  (run.tool as Json).extensions = [{ name: TOOL.name, version: TOOL.version }];
  run.originalUriBaseIds = { '%SRCROOT%': { description: { text: 'the scanned root' } } };
  const results = run.results as Json[];
  let k = 0;
  for (const a of assets)
    for (const f of a.findings) {
      const r = results[k++]!;
      const loc = locationFor(a, f.evidence);
      const [first] = r.locations as Json[];
      r.locations = [
        {
          ...first,
          physicalLocation: {
            artifactLocation: { uri: uriOf(loc.path), uriBaseId: '%SRCROOT%' },
            region: { startLine: Math.max(1, loc.line) },
          },
        },
      ];
      (r.properties as Json).asset_uri = assetArtifactUri(a);
      (r.properties as Json).asset_name = a.name;
    }
  return log;
}
