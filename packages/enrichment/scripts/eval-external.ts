// The external hold-out set (../shared/data/holdout-external: 29 real manifests, a reviewer's expected band range,
// key risks and CVEs, written before any run; never edited here). Each file goes through the engine as the API and the
// worker would run it (docs/advisories.md "Enrichment"): the submitted asset_type, name, source_url and metadata, the
// engine's own format detection, a fresh asset's publisher context, and the advisories a database holding the curated
// and the shipped PyPA feed would hand the second analysis pass.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import {
  advisoryPackageKey,
  analyzeObservationsWithPackages,
  finalize,
  normalizeOsv,
  parseFeedFile,
  CURATED_OSV_RECORDS,
  type AssetType,
  type EnrichmentInput,
  type Severity,
} from '../src/index';
import type { AdvisoryRecord } from '../src/advisories/osv';
import type { EnrichmentResult } from '../src/finalize';
import { BANDS, bandIndex, confusionTable } from './corpus-index';

export const EXTERNAL_DIR = resolve(__dirname, '../../../../shared/data/holdout-external');
export const PYPA_ARCHIVE = join(__dirname, '..', 'data', 'osv-pypi', 'osv-pypi.zip');
export const EXTERNAL_NOW = '2026-11-23T00:00:00Z';

export interface ExternalExpectation {
  file: string;
  fingerprint_label: string;
  asset_type: AssetType;
  name: string;
  metadata: Record<string, unknown> | null;
  source_url: string | null;
  expected_band: [Severity, Severity];
  risky: boolean;
  key_risks: string[];
  cves: string[];
  cves_optional?: string[];
  cves_absent?: string[];
  notes?: string;
}

export interface ExternalOutcome {
  x: ExternalExpectation;
  kind: string;
  score: number;
  actual: Severity;
  /** signed distance to the nearest end of the expected range (0 = inside) */
  distance: number;
  rules: string[];
  cvesReported: string[];
  cvesMissing: string[];
  cvesWronglyReported: string[];
  /** rules with a finding above the expected range's upper band, on an asset the reviewer expects benign */
  benignFindings: string[];
}

export interface ExternalBoard {
  outcomes: ExternalOutcome[];
  exact: number;
  withinOne: number;
  offBy2: ExternalOutcome[];
  cvesExpected: number;
  cvesFound: number;
  benign: number;
  benignFindings: number;
  /** rows: expected band (the range's upper end), columns: engine band */
  matrix: number[][];
}

export function loadExternal(dir = EXTERNAL_DIR): ExternalExpectation[] | null {
  const path = join(dir, 'expectations.json');
  if (!existsSync(path)) return null;
  return JSON.parse(readFileSync(path, 'utf8')) as ExternalExpectation[];
}

let feedCache: Map<string, AdvisoryRecord[]> | null = null;

/** The records a database loaded with the curated and the shipped PyPA feed holds, by package key. */
export function databaseAdvisories(): Map<string, AdvisoryRecord[]> {
  if (feedCache) return feedCache;
  const raw: unknown[] = [...CURATED_OSV_RECORDS];
  if (existsSync(PYPA_ARCHIVE)) {
    const entries = unzipSync(readFileSync(PYPA_ARCHIVE));
    for (const [name, bytes] of Object.entries(entries)) {
      if (!/\.(json|ya?ml)$/i.test(name)) continue;
      const parsed = parseFeedFile(name, new TextDecoder().decode(bytes));
      if (parsed.ok) raw.push(...parsed.records);
    }
  }
  const byId = new Map<string, AdvisoryRecord>();
  for (const r of raw) {
    const n = normalizeOsv(r);
    // an id is unique across feeds; the curated feed is loaded first on every start and keeps its records
    if (n.ok && !byId.has(n.record.id)) byId.set(n.record.id, n.record);
  }
  const out = new Map<string, AdvisoryRecord[]>();
  for (const rec of byId.values())
    for (const key of new Set(rec.affected.map((a) => advisoryPackageKey(a.ecosystem, a.name)))) {
      const l = out.get(key) ?? [];
      l.push(rec);
      out.set(key, l);
    }
  feedCache = out;
  return out;
}

/** One submission, enriched as the worker does: first pass on the shipped advisories, second on the database's. */
export function enrichLikeApi(x: ExternalExpectation, dir = EXTERNAL_DIR): { result: EnrichmentResult; kind: string } {
  const input: EnrichmentInput = {
    fingerprint: `external:${x.fingerprint_label}`,
    asset_type: x.asset_type,
    name: x.name,
    version: null,
    source_url: x.source_url,
    raw_manifest: readFileSync(join(dir, x.file), 'utf8'),
    metadata: x.metadata,
  };
  const ctx = {
    threats: [],
    publisher: { org_count: 1, signal_count: 1, first_seen: EXTERNAL_NOW },
    now: EXTERNAL_NOW,
  };
  const first = analyzeObservationsWithPackages([input]);
  const db = databaseAdvisories();
  const records = new Map<string, AdvisoryRecord>();
  for (const p of first.packages)
    for (const r of db.get(advisoryPackageKey(p.ecosystem, p.name)) ?? []) records.set(r.id, r);
  const kind = first.analysis.parsed.kind;
  if (records.size === 0) return { result: finalize(first.analysis, ctx), kind };
  const second = analyzeObservationsWithPackages([{ ...input, advisories: [...records.values()] }]);
  return { result: finalize(second.analysis, ctx), kind };
}

export function runExternal(expectations: ExternalExpectation[], dir = EXTERNAL_DIR): ExternalBoard {
  const outcomes = expectations.map((x): ExternalOutcome => {
    const { result, kind } = enrichLikeApi(x, dir);
    const band = result.intrinsic_risk_severity;
    const lo = bandIndex(x.expected_band[0]);
    const hi = bandIndex(x.expected_band[1]);
    const b = bandIndex(band);
    const distance = b < lo ? b - lo : b > hi ? b - hi : 0;
    const reported = new Set(result.findings.flatMap((f) => f.cve_ids ?? []));
    const rules = [
      ...new Set(result.findings.filter((f) => f.severity !== 'informational').map((f) => f.rule_id)),
    ].sort();
    return {
      x,
      kind,
      score: result.intrinsic_risk_score,
      actual: band,
      distance,
      rules,
      cvesReported: [...reported].filter((c) => c.startsWith('CVE-')).sort(),
      cvesMissing: x.cves.filter((c) => !reported.has(c)),
      cvesWronglyReported: (x.cves_absent ?? []).filter((c) => reported.has(c)),
      // a finding is a false positive on a benign asset when it alone claims more than the reviewer's range allows
      benignFindings: x.risky
        ? []
        : [
            ...new Set(
              result.findings
                .filter((f) => f.severity !== 'informational' && bandIndex(f.severity) > hi)
                .map((f) => f.rule_id),
            ),
          ].sort(),
    };
  });
  const n = outcomes.length || 1;
  const matrix = BANDS.map(() => BANDS.map(() => 0));
  for (const o of outcomes) {
    // an in-range verdict sits on the diagonal; otherwise the row is the range's nearer end
    const row = o.distance === 0 ? bandIndex(o.actual) : bandIndex(o.x.expected_band[o.distance < 0 ? 0 : 1]);
    matrix[row]![bandIndex(o.actual)]! += 1;
  }
  const benign = outcomes.filter((o) => !o.x.risky);
  return {
    outcomes,
    exact: outcomes.filter((o) => o.distance === 0).length / n,
    withinOne: outcomes.filter((o) => Math.abs(o.distance) <= 1).length / n,
    offBy2: outcomes.filter((o) => Math.abs(o.distance) >= 2),
    cvesExpected: outcomes.reduce((s, o) => s + o.x.cves.length, 0),
    cvesFound: outcomes.reduce((s, o) => s + o.x.cves.length - o.cvesMissing.length, 0),
    benign: benign.length,
    benignFindings: benign.reduce((s, o) => s + o.benignFindings.length, 0),
    matrix,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const list = (xs: string[]) => (xs.length ? xs.join(', ') : '—');

export function renderExternal(board: ExternalBoard): string {
  const out: string[] = [];
  const n = board.outcomes.length;
  out.push('# External hold-out set', '');
  out.push(
    `${n} manifests from ../shared/data/holdout-external (never edited), each enriched as the API would: the submitted asset_type, name, source_url and metadata, the engine's own format detection, a fresh asset's publisher context, and a database holding the curated and the shipped PyPA feeds. Exact = the engine's band inside the expected range; distance = bands to the range's nearer end.`,
    '',
  );
  out.push('| measure | value |', '|---|---|');
  out.push(`| exact band agreement | ${pct(board.exact)} |`);
  out.push(`| ±1 band agreement | ${pct(board.withinOne)} |`);
  out.push(`| off by 2+ bands | ${board.offBy2.length} |`);
  out.push(`| expected CVEs reported | ${board.cvesFound} of ${board.cvesExpected} |`);
  out.push(
    `| false-positive findings per benign asset (a finding above the expected range) | ${(board.benign ? board.benignFindings / board.benign : 0).toFixed(2)} (${board.benignFindings} on ${board.benign}) |`,
  );
  out.push('');
  out.push('## Confusion matrix (rows: expected — the engine band when inside the range, else the nearer end)', '');
  out.push(...confusionTable(board.matrix));
  out.push('');
  out.push('## Disagreements (every file outside its expected range, or missing an expected CVE)', '');
  const bad = board.outcomes.filter((o) => o.distance !== 0 || o.cvesMissing.length || o.cvesWronglyReported.length);
  if (!bad.length) out.push('None.');
  else {
    out.push(
      '| file | expected | engine (score) | read as | fired | CVEs missing | CVEs wrongly reported |',
      '|---|---|---|---|---|---|---|',
    );
    for (const o of [...bad].sort((a, b) => Math.abs(b.distance) - Math.abs(a.distance) || a.distance - b.distance))
      out.push(
        `| ${o.x.file.replace(/^files\//, '')} | ${o.x.expected_band.join('–')} | ${o.actual} (${o.score}) | ${o.kind} | ${list(o.rules)} | ${list(o.cvesMissing)} | ${list(o.cvesWronglyReported)} |`,
      );
  }
  out.push('');
  out.push('## Every file', '');
  out.push('| file | expected | engine (score) | read as | fired | CVEs reported |', '|---|---|---|---|---|---|');
  for (const o of board.outcomes)
    out.push(
      `| ${o.x.file.replace(/^files\//, '')} | ${o.x.expected_band.join('–')} | ${o.actual} (${o.score}) | ${o.kind} | ${list(o.rules)} | ${list(o.cvesReported)} |`,
    );
  out.push('');
  return out.join('\n');
}
