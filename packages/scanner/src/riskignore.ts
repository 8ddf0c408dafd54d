// The ignore file (docs/scanner.md "Accepting a verdict"): `.riskignore` at the scan root, or `--ignore-file`. Like
// the platform's triage, an entry accepts a verdict for one asset (by fingerprint or name) or one finding of it (a rule
// id), always with a reason and optionally until an expiry date, after which the finding counts again.
//
//   # fingerprint-or-name  [rule-id]  reason: why  [expires: YYYY-MM-DD]
//   sha256:9f2c…  R12  reason: pinned internal server  expires: 2027-01-31
//   filesystem    *    reason: read-only mount
import { readFile } from 'node:fs/promises';
import type { JudgedAsset } from './judge';
import { computeScore, severityForScore } from '@risk/enrichment';

export interface IgnoreEntry {
  asset: string;
  /** a rule id, or null for every finding of the asset */
  rule: string | null;
  reason: string;
  expires: string | null;
  line: number;
}

export class IgnoreFileError extends Error {}

const EXPIRES = /^\d{4}-\d{2}-\d{2}$/;

/**
 * One entry split by words rather than matched by one pattern (a pattern with optional parts around `\s+` backtracks
 * quadratically on long blank runs): `asset [rule] reason: text… [expires: date]`.
 */
function parseEntry(
  line: string,
): { asset: string; rule: string | null; reason: string; expires: string | null } | null {
  const at = line.indexOf('reason:');
  if (at < 0) return null;
  const head = line
    .slice(0, at)
    .split(/[ \t]+/)
    .filter(Boolean);
  if (head.length < 1 || head.length > 2 || (at > 0 && !/[ \t]/.test(line[at - 1]!))) return null;
  let reason = line.slice(at + 'reason:'.length).trim();
  let expires: string | null = null;
  const ex = reason.lastIndexOf('expires:');
  if (ex >= 0 && (ex === 0 || /[ \t]/.test(reason[ex - 1]!))) {
    const date = reason.slice(ex + 'expires:'.length).trim();
    if (EXPIRES.test(date)) {
      expires = date;
      reason = reason.slice(0, ex).trim();
    }
  }
  if (!reason) return null;
  return { asset: head[0]!, rule: head[1] ?? null, reason, expires };
}

export function parseIgnoreFile(text: string): IgnoreEntry[] {
  const out: IgnoreEntry[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '').trim();
    if (!line || line.startsWith('#')) return;
    const m = parseEntry(line.slice(0, 2000));
    if (!m)
      throw new IgnoreFileError(`line ${i + 1}: expected "<fingerprint|name> [rule] reason: … [expires: YYYY-MM-DD]"`);
    const { expires } = m;
    if (expires && Number.isNaN(Date.parse(`${expires}T00:00:00Z`)))
      throw new IgnoreFileError(`line ${i + 1}: bad expiry ${expires}`);
    out.push({
      asset: m.asset,
      rule: !m.rule || m.rule === '*' ? null : m.rule,
      reason: m.reason,
      expires,
      line: i + 1,
    });
  });
  return out;
}

export async function loadIgnoreFile(file: string, required: boolean): Promise<IgnoreEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if (!required && (e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new IgnoreFileError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return parseIgnoreFile(text);
}

/**
 * Drops the accepted findings of each asset (an expired entry accepts nothing) and rescores what is left with the
 * engine's own formula, so the band the asset lands in is the one its remaining findings give.
 */
export function applyIgnores(assets: JudgedAsset[], entries: readonly IgnoreEntry[], today: string): JudgedAsset[] {
  const live = entries.filter((e) => !e.expires || e.expires >= today);
  return assets.map((a) => {
    const mine = live.filter((e) => e.asset === a.fingerprint || e.asset === a.name);
    if (!mine.length) return a;
    const ignored: JudgedAsset['ignored'] = [];
    const findings = a.findings.filter((f) => {
      const hit = mine.find((e) => e.rule === null || e.rule === f.rule_id);
      if (hit) ignored.push({ rule_id: f.rule_id, reason: hit.reason });
      return !hit;
    });
    if (!ignored.length) return a;
    const s = computeScore(findings);
    return { ...a, findings, ignored, score: s.score, severity: severityForScore(s.score) };
  });
}
