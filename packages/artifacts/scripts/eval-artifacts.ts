// Scoreboard over the labelled model-artifact data set (../shared/data/model-artifacts, hostile files: read as bytes
// only). Prints a confusion matrix per format, precision/recall/F1 of (malicious|suspicious) against benign, every
// false positive and every miss with its evidence, and exits 1 below the targets (docs/artifacts.md "Benchmark"):
// every malicious file flagged (malicious or suspicious), no benign file flagged, every invalid file reported invalid
// (or at least not benign and without a security finding).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyseFile, type ArtifactResult, type ArtifactVerdict } from '../src/index';

export const DEFAULT_DATASET = path.resolve(__dirname, '../../../../shared/data/model-artifacts');

interface Label {
  file: string;
  format: string;
  verdict: ArtifactVerdict;
  what: string;
  group: string;
}

interface Row {
  label: Label;
  result: ArtifactResult;
}

const VERDICTS: ArtifactVerdict[] = ['malicious', 'suspicious', 'benign', 'invalid', 'unscannable', 'unsupported'];
const flagged = (verdict: ArtifactVerdict): boolean => verdict === 'malicious' || verdict === 'suspicious';

function evidence(result: ArtifactResult): string {
  const top = result.findings.slice(0, 3).map((f) => {
    const where = [f.evidence.member, f.evidence.offset !== undefined ? `@${f.evidence.offset}` : undefined]
      .filter((x) => x !== undefined)
      .join(' ');
    return `${f.id}${f.evidence.callable !== undefined ? ` ${f.evidence.callable}` : ''}${where !== '' ? ` (${where})` : ''}`;
  });
  const reason = result.facts.invalid ?? result.facts.unscannable ?? result.facts.unsupported;
  if (typeof reason === 'string') top.push(reason);
  return top.join('; ') || 'no findings';
}

export async function evaluate(dataset: string): Promise<{ rows: Row[]; failures: string[] }> {
  const labels = JSON.parse(readFileSync(path.join(dataset, 'labels.json'), 'utf8')) as Label[];
  const rows: Row[] = [];
  for (const label of labels) rows.push({ label, result: await analyseFile(path.join(dataset, label.file)) });
  const failures: string[] = [];
  for (const { label, result } of rows) {
    const expected = label.verdict;
    const actual = result.verdict;
    if (expected === 'malicious' && !flagged(actual)) failures.push(`MISS ${label.file}: malicious reported ${actual}`);
    if (expected === 'benign' && flagged(actual))
      failures.push(`FALSE POSITIVE ${label.file}: benign reported ${actual}`);
    if (expected === 'invalid' && actual !== 'invalid' && (actual === 'benign' || flagged(actual))) {
      failures.push(`INVALID ${label.file}: reported ${actual}`);
    }
  }
  return { rows, failures };
}

function pad(text: string | number, width: number): string {
  return String(text).padStart(width);
}

function printReport(rows: Row[], failures: string[]): void {
  const formats = [...new Set(rows.map((r) => r.label.format))].sort();
  for (const format of formats) {
    const subset = rows.filter((r) => r.label.format === format);
    console.log(`\n${format} (${subset.length} files)   rows: labelled verdict, columns: reported verdict`);
    console.log(`${pad('', 12)}${VERDICTS.map((v) => pad(v.slice(0, 11), 12)).join('')}`);
    for (const expected of VERDICTS) {
      const line = subset.filter((r) => r.label.verdict === expected);
      if (line.length === 0) continue;
      const cells = VERDICTS.map((actual) => pad(line.filter((r) => r.result.verdict === actual).length, 12));
      console.log(`${pad(expected, 12)}${cells.join('')}`);
    }
    const mismatched = subset.filter((r) => r.result.format !== r.label.format);
    for (const r of mismatched) console.log(`  format: ${r.label.file} detected as ${r.result.format}`);
  }
  // Binary scores: positive = labelled malicious or suspicious; predicted positive = reported malicious or suspicious.
  const scored = rows.filter((r) => r.label.verdict !== 'invalid');
  const tp = scored.filter((r) => flagged(r.label.verdict) && flagged(r.result.verdict)).length;
  const fp = scored.filter((r) => !flagged(r.label.verdict) && flagged(r.result.verdict)).length;
  const fn = scored.filter((r) => flagged(r.label.verdict) && !flagged(r.result.verdict)).length;
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const maliciousAsMalicious = rows.filter(
    (r) => r.label.verdict === 'malicious' && r.result.verdict === 'malicious',
  ).length;
  const malicious = rows.filter((r) => r.label.verdict === 'malicious').length;
  console.log(`\n(malicious|suspicious) vs benign: tp ${tp} fp ${fp} fn ${fn}`);
  console.log(`precision ${precision.toFixed(3)} recall ${recall.toFixed(3)} F1 ${f1.toFixed(3)}`);
  console.log(`malicious reported malicious: ${maliciousAsMalicious}/${malicious}`);
  const falsePositives = scored.filter((r) => !flagged(r.label.verdict) && flagged(r.result.verdict));
  const misses = scored.filter((r) => flagged(r.label.verdict) && !flagged(r.result.verdict));
  console.log(`\nfalse positives: ${falsePositives.length}`);
  for (const r of falsePositives)
    console.log(`  ${r.label.file} (${r.label.verdict} → ${r.result.verdict}): ${evidence(r.result)}`);
  console.log(`misses: ${misses.length}`);
  for (const r of misses)
    console.log(`  ${r.label.file} (${r.label.verdict} → ${r.result.verdict}): ${evidence(r.result)}`);
  const downgraded = rows.filter((r) => r.label.verdict === 'malicious' && r.result.verdict === 'suspicious');
  if (downgraded.length > 0) {
    console.log(`malicious reported suspicious: ${downgraded.length}`);
    for (const r of downgraded) console.log(`  ${r.label.file}: ${evidence(r.result)}`);
  }
  console.log(
    failures.length === 0 ? '\neval:artifacts: targets met' : `\neval:artifacts: ${failures.length} target failures`,
  );
  for (const failure of failures) console.log(`  ${failure}`);
}

async function main(argv: string[]): Promise<number> {
  const dataset = argv[0] !== undefined ? path.resolve(argv[0]) : DEFAULT_DATASET;
  const { rows, failures } = await evaluate(dataset);
  printReport(rows, failures);
  return failures.length === 0 ? 0 : 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
