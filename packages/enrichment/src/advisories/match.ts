// R23's advisory matching over OSV records (docs/advisories.md "Matching"): a pinned version is tested against each
// affected range in its ecosystem's order and the explicit `versions` list; a range spec matches when every version
// it allows is unfixed. Records that name the same vulnerability (shared id or alias: the curated CVE entry and
// PyPA's PYSEC record) make one match.
import semver from 'semver';
import type { Dependency } from '../types';
import { isPinned } from '../versions';
import { inInterval, intervalText, rangeIntervals, type Interval } from './intervals';
import { versionOrder } from './order';
import { packageNameKey, type AdvisoryAffected, type AdvisoryRecord } from './osv';
import { boundsUnfixed, pep440Bounds, semverRangeUnfixed } from './spec-bounds';

export interface AdvisoryMatch {
  advisory: AdvisoryRecord;
  dependency: Dependency;
  /** the other records of the same vulnerability that matched too */
  same_as: string[];
  /** the affected range that matched, as text (`<0.0.247`, `>=0.2.30 <0.2.72`, `listed version`) */
  affected: string;
  /** the fix closing that range, when there is one */
  fixed: string | null;
}

/** `${ecosystem}:${normalized name}`: how advisories are indexed (also the database's key, docs/advisories.md). */
export function advisoryPackageKey(ecosystem: string, name: string): string {
  return `${ecosystem.toLowerCase()}:${packageNameKey(ecosystem, name)}`;
}

/** Index records by the package keys they affect (a withdrawn record is void and left out). */
export function indexAdvisories(records: readonly AdvisoryRecord[]): Map<string, AdvisoryRecord[]> {
  const out = new Map<string, AdvisoryRecord[]>();
  for (const r of records) {
    if (r.withdrawn) continue;
    for (const key of new Set(r.affected.map((a) => advisoryPackageKey(a.ecosystem, a.name)))) {
      const l = out.get(key) ?? [];
      l.push(r);
      out.set(key, l);
    }
  }
  return out;
}

function pinnedVersion(d: Dependency): string | null {
  if (!isPinned(d.ecosystem, d.spec)) return null;
  if (d.ecosystem === 'pypi') return d.spec.trim().replace(/^===?/, '').trim();
  return semver.valid(d.spec.trim(), { loose: true });
}

interface Hit {
  affected: string;
  fixed: string | null;
}

/** `1.0.0` → `1`, `0.5` → `0.5`: trailing zero release parts, which PEP 440 and semver equality ignore in a list. */
function releasePadless(v: string): string {
  let s = v.trim();
  while (s.endsWith('.0') && s.indexOf('.') !== s.length - 2) s = s.slice(0, -2);
  return s;
}

/**
 * An explicit `versions` entry equal to the pin: string equality, then equality up to trailing `.0` parts
 * (`0.5` = `0.5.0`). PyPA lists hundreds of versions per record: parsing each with the version order would cost more
 * than every range check together (docs/advisories.md "Performance"), and the lists enumerate the ranges anyway.
 */
function listed(versions: readonly string[], pin: string): boolean {
  if (versions.includes(pin)) return true;
  const p = releasePadless(pin);
  return versions.some((v) => releasePadless(v) === p);
}

function matchAffected(a: AdvisoryAffected, d: Dependency): Hit | null {
  const pin = pinnedVersion(d);
  for (const r of a.ranges) {
    const order = versionOrder(a.ecosystem, r.type);
    if (!order) continue;
    const intervals: Interval[] = rangeIntervals(r, order);
    if (pin !== null) {
      const v = order.parse(pin);
      if (v === null) continue;
      const i = intervals.find((x) => inInterval(v, x, order));
      if (i) return { affected: intervalText(i), fixed: i.inclusive ? null : i.to };
      continue;
    }
    const range = d.ecosystem === 'npm' ? semver.validRange(d.spec.trim(), { loose: true }) : null;
    const bounds = d.ecosystem === 'pypi' ? pep440Bounds(d.spec, order) : null;
    for (const i of intervals) {
      const unfixed = range ? semverRangeUnfixed(range, i) : bounds ? boundsUnfixed(bounds, i, order) : false;
      if (unfixed) return { affected: intervalText(i), fixed: i.inclusive ? null : i.to };
    }
  }
  if (pin !== null && listed(a.versions, pin)) return { affected: 'listed version', fixed: null };
  return null;
}

/** Prefer the curated record of a vulnerability (its severity is reviewed), then one with a severity, then the id. */
function preference(r: AdvisoryRecord): string {
  return `${r.source_url ? 0 : 1}${r.severity ? 0 : 1}${r.id.startsWith('CVE-') ? 0 : 1}${r.id}`;
}

/** Matches of `deps` against `index` (indexAdvisories), one per dependency and vulnerability. */
export function matchDependencies(deps: readonly Dependency[], index: Map<string, AdvisoryRecord[]>): AdvisoryMatch[] {
  const out: AdvisoryMatch[] = [];
  for (const d of deps) {
    const key = advisoryPackageKey(d.ecosystem, d.name);
    const hits: Array<{ r: AdvisoryRecord; hit: Hit }> = [];
    for (const r of index.get(key) ?? []) {
      for (const a of r.affected) {
        if (advisoryPackageKey(a.ecosystem, a.name) !== key) continue;
        const hit = matchAffected(a, d);
        if (hit) {
          hits.push({ r, hit });
          break;
        }
      }
    }
    hits.sort((x, y) => preference(x.r).localeCompare(preference(y.r)));
    const seen = new Set<string>();
    for (const { r, hit } of hits) {
      const names = [r.id, ...r.aliases];
      if (names.some((n) => seen.has(n))) continue;
      const same = hits.filter((h) => h.r !== r && [h.r.id, ...h.r.aliases].some((n) => names.includes(n)));
      for (const n of [...names, ...same.flatMap((h) => [h.r.id, ...h.r.aliases])]) seen.add(n);
      out.push({ advisory: r, dependency: d, same_as: same.map((h) => h.r.id), ...hit });
    }
  }
  return out;
}
