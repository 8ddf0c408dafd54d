// The labelled corpus of real manifests (packages/enrichment/corpus/, method in its README.md): loading and the
// structural checks shared by the scoreboard (scripts/eval-corpus.ts) and the well-formedness test
// (test/corpus.test.ts). No engine code here: the expectations must stay independent of the engine.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ASSET_TYPES, type AssetType, type Severity } from '../src/index';
import { CORPUS_FORMATS } from '../src/formats';

export const CORPUS_DIR = join(__dirname, '..', 'corpus');
export const INDEX_PATH = join(CORPUS_DIR, 'index.yaml');
/**
 * Later growth of the corpus: each file here is one labelling batch with its own `expectations` (who labelled, when,
 * and the commit that holds the labels before the engine was run on them), `history` and `entries`, so batches
 * labelled in parallel never edit one file. The vocabulary lives only in index.yaml.
 */
export const BATCHES_DIR = join(CORPUS_DIR, 'batches');

/** Severity bands, least to most severe; a band's position is its distance unit in the scoreboard. */
export const BANDS: readonly Severity[] = ['informational', 'low', 'medium', 'high', 'critical'];

/**
 * A band-by-band confusion matrix (rows: expected, columns: engine) as Markdown table lines: the diagonal in bold,
 * row totals and a totals row. The scoreboard, the cross-validation and the hold-out set print theirs with it.
 */
export function confusionTable(matrix: readonly (readonly number[])[]): string[] {
  const out = [
    `| expected \\ engine | ${BANDS.join(' | ')} | total |`,
    `|---|${BANDS.map(() => '---:').join('|')}|---:|`,
  ];
  BANDS.forEach((b, i) => {
    const row = matrix[i]!;
    const cells = row.map((c, j) => (i === j ? `**${c}**` : String(c)));
    out.push(`| **${b}** | ${cells.join(' | ')} | ${row.reduce((a, c) => a + c, 0)} |`);
  });
  const cols = BANDS.map((_, j) => matrix.reduce((a, row) => a + row[j]!, 0));
  out.push(`| total | ${cols.join(' | ')} | ${cols.reduce((a, c) => a + c, 0)} |`);
  return out;
}

/**
 * The formats the corpus must cover, by the name its entries use, and the subformats each must show: both from the
 * format registry (src/formats/registry.ts), so a format the engine claims cannot be left out of the corpus.
 */
export const REQUIRED_FORMATS: readonly string[] = CORPUS_FORMATS.map((f) => f.name);

/** Variants that must each appear at least once (format → subformats). */
export const REQUIRED_SUBFORMATS: Record<string, readonly string[]> = Object.fromEntries(
  CORPUS_FORMATS.filter((f) => f.subformats.length > 0).map((f) => [f.name, f.subformats]),
);

export const MIN_ENTRIES = 250;
/** Every format the engine claims is covered by at least this many entries. */
export const MIN_PER_FORMAT = 15;

export interface CorpusSource {
  repo: string;
  path: string;
  commit: string;
}

export interface CorpusEntry {
  id: string;
  file: string;
  format: string;
  subformat?: string;
  asset_type: AssetType;
  name: string;
  fingerprint?: string;
  source: CorpusSource;
  expected_band: Severity;
  /** Engine-agnostic risk phrases (keys of risk_vocabulary). */
  expected_risks: string[];
  /** Extra engine rule ids that also count as expected for this entry. */
  rules?: string[];
  justification: string;
  excerpt?: string;
  note?: string;
  /** Set when the manifest was taken from /work/shared/samples/manifests (the engine's own test data). */
  from_samples?: string;
}

export interface CorpusHistoryItem {
  date: string;
  change: string;
  entries: string | string[];
  reason?: string;
  /** Set on items that came from a batch file. */
  batch?: string;
}

export interface CorpusExpectations {
  written_at: string;
  engine_run_before_writing: boolean;
  author: string;
  committed_in?: string;
}

export interface CorpusBatch {
  /** The batch's file name under corpus/batches/. */
  file: string;
  expectations: CorpusExpectations;
  history: CorpusHistoryItem[];
  entries: CorpusEntry[];
}

export interface CorpusIndex {
  version: number;
  expectations: CorpusExpectations;
  /** The batches merged into `entries` and `history` (empty when only index.yaml exists). */
  batches?: { file: string; expectations: CorpusExpectations; entries: number }[];
  risk_vocabulary: Record<string, string[]>;
  history: CorpusHistoryItem[];
  entries: CorpusEntry[];
}

/** index.yaml plus every batch under corpus/batches/ (sorted by name), merged into one index. */
export function loadCorpus(path = INDEX_PATH, batchesDir = BATCHES_DIR): CorpusIndex {
  const index = parse(readFileSync(path, 'utf8')) as CorpusIndex;
  const files = existsSync(batchesDir)
    ? readdirSync(batchesDir)
        .filter((f) => f.endsWith('.yaml'))
        .sort()
    : [];
  index.batches = [];
  for (const file of files) {
    const batch = parse(readFileSync(join(batchesDir, file), 'utf8')) as Omit<CorpusBatch, 'file'>;
    const entries = Array.isArray(batch?.entries) ? batch.entries : [];
    index.batches.push({ file, expectations: batch?.expectations, entries: entries.length });
    index.entries = [...index.entries, ...entries];
    index.history = [...index.history, ...(batch?.history ?? []).map((h) => ({ ...h, batch: file }))];
  }
  return index;
}

export function readManifest(entry: CorpusEntry): string {
  return readFileSync(join(CORPUS_DIR, entry.file), 'utf8');
}

export function bandIndex(band: Severity): number {
  return BANDS.indexOf(band);
}

/** Benign = expected informational or low; everything else is a risky asset. */
export function isRisky(entry: CorpusEntry): boolean {
  return bandIndex(entry.expected_band) >= bandIndex('medium');
}

/** Engine rule ids that count as producing the entry's expected risks (vocabulary mapping plus `rules`). */
export function expectedRules(index: CorpusIndex, entry: CorpusEntry): Set<string> {
  const out = new Set<string>(entry.rules ?? []);
  for (const risk of entry.expected_risks) for (const rule of index.risk_vocabulary[risk] ?? []) out.add(rule);
  return out;
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/** Every structural problem in the index, as readable sentences (empty when well-formed). */
export function validateCorpus(index: CorpusIndex): string[] {
  const problems: string[] = [];
  if (!index || !Array.isArray(index.entries)) return ['index has no entries list'];
  if (!index.expectations || !nonEmpty(index.expectations.written_at))
    problems.push('expectations.written_at is missing');
  if (!Array.isArray(index.history) || index.history.length === 0) problems.push('history section is missing');
  for (const b of index.batches ?? []) {
    if (!b.expectations || !nonEmpty(b.expectations.written_at) || !nonEmpty(b.expectations.author))
      problems.push(`batch ${b.file}: expectations.written_at and author are required`);
    else if (b.expectations.engine_run_before_writing !== false)
      problems.push(`batch ${b.file}: expectations must be written before the engine is run on them`);
    if (b.entries === 0) problems.push(`batch ${b.file}: no entries`);
  }
  const vocab = index.risk_vocabulary ?? {};
  for (const [phrase, rules] of Object.entries(vocab))
    if (!Array.isArray(rules)) problems.push(`risk_vocabulary.${phrase} is not a list`);
  if (index.entries.length < MIN_ENTRIES)
    problems.push(`${index.entries.length} entries, at least ${MIN_ENTRIES} required`);
  const seen = new Set<string>();
  for (const e of index.entries) {
    const at = `entry ${e?.id ?? '?'}`;
    if (!nonEmpty(e.id)) problems.push(`${at}: id missing`);
    else if (seen.has(e.id)) problems.push(`${at}: duplicate id`);
    else seen.add(e.id);
    for (const key of ['file', 'format', 'name', 'justification'] as const)
      if (!nonEmpty(e[key])) problems.push(`${at}: ${key} missing`);
    if (nonEmpty(e.file) && !existsSync(join(CORPUS_DIR, e.file))) problems.push(`${at}: file ${e.file} not found`);
    if (!(ASSET_TYPES as readonly string[]).includes(e.asset_type))
      problems.push(`${at}: asset_type ${String(e.asset_type)} unknown`);
    if (!BANDS.includes(e.expected_band)) problems.push(`${at}: expected_band ${String(e.expected_band)} unknown`);
    if (nonEmpty(e.format) && !REQUIRED_FORMATS.includes(e.format))
      problems.push(`${at}: format ${e.format} is not a format of the registry (src/formats/registry.ts)`);
    else if (e.subformat !== undefined && !(REQUIRED_SUBFORMATS[e.format] ?? []).includes(e.subformat))
      problems.push(`${at}: subformat ${String(e.subformat)} is not one of ${e.format}'s in the registry`);
    if (!e.source || !nonEmpty(e.source.repo) || !nonEmpty(e.source.path) || !nonEmpty(e.source.commit))
      problems.push(`${at}: source {repo, path, commit} incomplete`);
    else if (!/^[0-9a-f]{7,40}$/.test(e.source.commit)) problems.push(`${at}: source.commit is not a git sha`);
    if (!Array.isArray(e.expected_risks)) problems.push(`${at}: expected_risks is not a list`);
    else
      for (const r of e.expected_risks)
        if (!(r in vocab)) problems.push(`${at}: expected risk "${r}" is not in risk_vocabulary`);
    if (isRisky(e) && Array.isArray(e.expected_risks) && e.expected_risks.length === 0)
      problems.push(`${at}: a ${e.expected_band} expectation names no key risk`);
  }
  const perFormat = new Map<string, number>();
  for (const e of index.entries) perFormat.set(e.format, (perFormat.get(e.format) ?? 0) + 1);
  for (const f of REQUIRED_FORMATS) {
    const n = perFormat.get(f) ?? 0;
    if (n === 0) problems.push(`format ${f} not covered`);
    else if (n < MIN_PER_FORMAT) problems.push(`format ${f} has ${n} entries, at least ${MIN_PER_FORMAT} required`);
  }
  for (const [format, subs] of Object.entries(REQUIRED_SUBFORMATS)) {
    const have = new Set(index.entries.filter((e) => e.format === format).map((e) => e.subformat));
    for (const s of subs) if (!have.has(s)) problems.push(`format ${format} has no ${s} entry`);
  }
  return problems;
}
