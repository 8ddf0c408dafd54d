// OSV records (https://ossf.github.io/osv-schema/) as the engine keeps them: the fields matching and the API need,
// validated from untrusted feed data (docs/advisories.md "Records").
import type { Severity } from '../types';
import { cvss3BaseScore } from './cvss';

export interface OsvEvent {
  introduced?: string;
  fixed?: string;
  last_affected?: string;
  limit?: string;
}
export interface OsvRange {
  type: string;
  events: OsvEvent[];
}
export interface AdvisoryAffected {
  /** lower-cased ecosystem key (`pypi`, `npm`, `go`, …): advisoryPackageKey */
  ecosystem: string;
  /** the name as the feed spells it */
  name: string;
  ranges: OsvRange[];
  versions: string[];
}

/** One advisory, normalized; `affected` keeps every package the record names. */
export interface AdvisoryRecord {
  id: string;
  aliases: string[];
  summary: string;
  /** from the record's database_specific/ecosystem_specific severity or its CVSS v3 vector; null when it has none */
  severity: Severity | null;
  modified: string;
  published: string | null;
  withdrawn: string | null;
  affected: AdvisoryAffected[];
  references: string[];
  /** `primary` unless the feed says the record rests on secondary sources (the curated feed) */
  verification: string;
  /** where the record is published, when the feed says so */
  source_url: string | null;
}

export const OSV_LIMITS = {
  id_chars: 100,
  aliases: 100,
  affected: 500,
  ranges: 50,
  events: 200,
  versions: 20_000,
  references: 200,
  summary_chars: 1000,
} as const;

/** Ecosystem key: OSV ecosystems are case-sensitive names (`PyPI`, `npm`, `Go`); `Debian:12` keeps its suffix. */
export function ecosystemKey(ecosystem: string): string {
  return ecosystem.trim().toLowerCase();
}

/** Package name key: PEP 503 normalization for PyPI, the name as is elsewhere. */
export function packageNameKey(ecosystem: string, name: string): string {
  const eco = ecosystemKey(ecosystem);
  // PEP 503: runs of `-`, `_`, `.` are one `-`, case-insensitive (a split, not a regex over a run: no backtracking)
  if (eco === 'pypi')
    return name
      .trim()
      .toLowerCase()
      .split(/[-_.]/)
      .filter((s) => s !== '')
      .join('-');
  return name.trim();
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strings = (v: unknown, max: number): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length <= 200).slice(0, max) : [];

const SEVERITY_WORDS: Record<string, Severity> = {
  critical: 'critical',
  high: 'high',
  moderate: 'medium',
  medium: 'medium',
  low: 'low',
  informational: 'informational',
  none: 'informational',
};

function scoreSeverity(score: number): Severity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'informational';
}

function severityOf(rec: Record<string, unknown>, affected: unknown[]): Severity | null {
  const words = [rec.database_specific, ...affected.map((a) => (isObj(a) ? a.ecosystem_specific : null))]
    .map((d) => (isObj(d) ? str(d.severity) : null))
    .filter((s): s is string => s !== null);
  for (const w of words) {
    const s = SEVERITY_WORDS[w.toLowerCase()];
    if (s) return s;
  }
  const vectors = Array.isArray(rec.severity) ? rec.severity : [];
  for (const v of vectors) {
    if (!isObj(v) || typeof v.score !== 'string') continue;
    const score = cvss3BaseScore(v.score);
    if (score !== null) return scoreSeverity(score);
  }
  return null;
}

function rangesOf(v: unknown): OsvRange[] {
  if (!Array.isArray(v)) return [];
  const out: OsvRange[] = [];
  for (const r of v.slice(0, OSV_LIMITS.ranges)) {
    if (!isObj(r) || typeof r.type !== 'string' || !Array.isArray(r.events)) continue;
    const events: OsvEvent[] = [];
    for (const e of r.events.slice(0, OSV_LIMITS.events)) {
      if (!isObj(e)) continue;
      const ev: OsvEvent = {};
      for (const k of ['introduced', 'fixed', 'last_affected', 'limit'] as const) {
        const s = str(e[k]);
        if (s !== null && s.length <= 200) ev[k] = s;
      }
      if (Object.keys(ev).length === 1) events.push(ev);
    }
    out.push({ type: r.type.slice(0, 20), events });
  }
  return out;
}

function affectedOf(v: unknown): AdvisoryAffected[] {
  if (!Array.isArray(v)) return [];
  const out: AdvisoryAffected[] = [];
  for (const a of v.slice(0, OSV_LIMITS.affected)) {
    if (!isObj(a) || !isObj(a.package)) continue;
    const eco = str(a.package.ecosystem);
    const name = str(a.package.name);
    if (!eco || !name || eco.length > 100 || name.length > 300) continue;
    out.push({
      ecosystem: ecosystemKey(eco),
      name,
      ranges: rangesOf(a.ranges),
      versions: strings(a.versions, OSV_LIMITS.versions),
    });
  }
  return out;
}

export type NormalizeResult = { ok: true; record: AdvisoryRecord } | { ok: false; error: string };

/** An OSV record from a feed → AdvisoryRecord, or why it is refused (no id, no modified date). Never throws. */
export function normalizeOsv(raw: unknown): NormalizeResult {
  if (!isObj(raw)) return { ok: false, error: 'not an object' };
  const id = str(raw.id);
  if (!id || !ID.test(id)) return { ok: false, error: 'missing or malformed id' };
  const modified = str(raw.modified);
  if (!modified || Number.isNaN(Date.parse(modified))) return { ok: false, error: `${id}: missing or bad modified` };
  const date = (v: unknown) => {
    const s = str(v);
    return s && !Number.isNaN(Date.parse(s)) ? new Date(s).toISOString() : null;
  };
  const affectedRaw = Array.isArray(raw.affected) ? raw.affected : [];
  const dbs = isObj(raw.database_specific) ? raw.database_specific : {};
  const refs = Array.isArray(raw.references) ? raw.references : [];
  const summary = str(raw.summary) ?? str(raw.details)?.split('\n')[0] ?? '';
  return {
    ok: true,
    record: {
      id,
      aliases: strings(raw.aliases, OSV_LIMITS.aliases).filter((a) => ID.test(a) && a !== id),
      summary: summary.slice(0, OSV_LIMITS.summary_chars),
      severity: severityOf(raw, affectedRaw),
      modified: new Date(modified).toISOString(),
      published: date(raw.published),
      withdrawn: date(raw.withdrawn),
      affected: affectedOf(affectedRaw),
      references: refs
        .map((r) => (isObj(r) ? str(r.url) : null))
        .filter((u): u is string => u !== null && /^https?:\/\//.test(u) && u.length <= 2000)
        .slice(0, OSV_LIMITS.references),
      verification: str(dbs.verification) ?? 'primary',
      source_url: str(dbs.source),
    },
  };
}
