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

const ENTRY = /^(\S+)(?:\s+(?!reason:)(\S+))?\s+reason:\s*(.+?)(?:\s+expires:\s*(\d{4}-\d{2}-\d{2}))?\s*$/;

export function parseIgnoreFile(text: string): IgnoreEntry[] {
  const out: IgnoreEntry[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '').trim();
    if (!line || line.startsWith('#')) return;
    const m = ENTRY.exec(line.slice(0, 2000));
    if (!m)
      throw new IgnoreFileError(`line ${i + 1}: expected "<fingerprint|name> [rule] reason: … [expires: YYYY-MM-DD]"`);
    const expires = m[4] ?? null;
    if (expires && Number.isNaN(Date.parse(`${expires}T00:00:00Z`)))
      throw new IgnoreFileError(`line ${i + 1}: bad expiry ${expires}`);
    out.push({ asset: m[1]!, rule: !m[2] || m[2] === '*' ? null : m[2], reason: m[3]!, expires, line: i + 1 });
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
