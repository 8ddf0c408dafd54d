// The default report (docs/scanner.md "Formats"): assets grouped by severity band, worst first, each with its type,
// score, where it was found and its top findings — every line fits an 80-column terminal; colour only on a TTY.
import pc from 'picocolors';
import type { JudgedAsset } from '../judge';
import { SEVERITY_ORDER } from '../judge';
import type { ScanResult } from '../scan';

export const WIDTH = 80;
const TOP_FINDINGS = 3;

function clip(s: string, width: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= width ? one : `${one.slice(0, Math.max(0, width - 1))}…`;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

export function table(result: ScanResult, colour: boolean): string {
  const c = pc.createColors(colour);
  const paint: Record<string, (s: string) => string> = {
    critical: (s) => c.bold(c.red(s)),
    high: c.red,
    medium: c.yellow,
    low: c.cyan,
    informational: c.dim,
  };
  const out: string[] = [];
  for (const band of SEVERITY_ORDER) {
    const inBand = result.assets
      .filter((a) => a.severity === band)
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    if (!inBand.length) continue;
    out.push(paint[band]!(`${band.toUpperCase()} (${inBand.length})`));
    for (const a of inBand) out.push(...assetLines(a, c));
    out.push('');
  }
  if (!result.assets.length) out.push('No AI assets found.', '');
  const s = result.stats;
  out.push(
    clip(
      `${result.assets.length} assets · ${s.files} files · ${s.manifests} manifests · ${s.model_files} model files (${formatBytes(s.bytes_hashed)} hashed)`,
      WIDTH,
    ),
  );
  if (s.skipped_dirs || s.ignored || s.symlinks_outside)
    out.push(
      clip(
        `skipped: ${s.skipped_dirs} dependency/build dirs · ${s.ignored} gitignored · ${s.symlinks_outside} symlinks leaving the tree`,
        WIDTH,
      ),
    );
  if (s.truncated)
    out.push(c.yellow(clip(`stopped at the file cap (--max-files ${s.files}): results are partial`, WIDTH)));
  for (const k of result.skipped.slice(0, 5))
    out.push(c.yellow(clip(`not hashed: ${k.path} (${formatBytes(k.size)}, ${k.reason})`, WIDTH)));
  if (result.skipped.length > 5) out.push(c.yellow(`not hashed: ${result.skipped.length - 5} more`));
  for (const e of s.errors.slice(0, 5)) out.push(c.yellow(clip(`error: ${e}`, WIDTH)));
  return `${out.join('\n')}\n`;
}

function assetLines(a: JudgedAsset, c: ReturnType<typeof pc.createColors>): string[] {
  const head = `${a.name}${a.version ? `@${a.version}` : ''}`;
  const tail = ` ${a.asset_type} · ${a.score}`;
  const lines = [`  ${c.bold(clip(head, WIDTH - 2 - tail.length - 1))}${c.dim(tail)}`];
  const where = a.locations.slice(0, 2).map((l) => `${l.path}:${l.line}`);
  if (a.locations.length > 2) where.push(`+${a.locations.length - 2} more`);
  lines.push(c.dim(`    ${clip(where.join(', '), WIDTH - 4)}`));
  const top = [...a.findings].sort((x, y) => y.score_contribution - x.score_contribution).slice(0, TOP_FINDINGS);
  for (const f of top) lines.push(`    ${clip(`${f.rule_id} ${f.title}`, WIDTH - 4)}`);
  if (a.findings.length > TOP_FINDINGS) lines.push(c.dim(`    +${a.findings.length - TOP_FINDINGS} more findings`));
  if (a.ignored.length)
    lines.push(
      c.dim(`    ${clip(`${a.ignored.length} accepted in ignore file (${a.ignored[0]!.reason})`, WIDTH - 4)}`),
    );
  return lines;
}
