// The labelled corpus (corpus/index.yaml, method in corpus/README.md) is well-formed: every file exists, every entry
// has its fields and a recorded source, at least 250 entries, every format covered by at least 15. The scoreboard itself
// (`pnpm eval:enrichment`) is not run here: it is a step of CI's full gate.
import {
  BANDS,
  MIN_ENTRIES,
  MIN_PER_FORMAT,
  REQUIRED_FORMATS,
  isRisky,
  loadCorpus,
  readManifest,
  validateCorpus,
  type CorpusIndex,
} from '../scripts/corpus-index';
import { NEUTRAL_CONTEXT, renderReport, runEntry, scoreCorpus } from '../scripts/eval-corpus';

describe('labelled corpus', () => {
  const index = loadCorpus();

  it('is well-formed (fields, files, sources, vocabulary, format coverage)', () => {
    expect(validateCorpus(index)).toEqual([]);
  });

  it('holds at least 250 entries, at least 15 of every format, roughly half risky', () => {
    expect(index.entries.length).toBeGreaterThanOrEqual(MIN_ENTRIES);
    const formats = new Set(index.entries.map((e) => e.format));
    for (const f of REQUIRED_FORMATS) {
      expect(formats).toContain(f);
      expect(index.entries.filter((e) => e.format === f).length).toBeGreaterThanOrEqual(MIN_PER_FORMAT);
    }
    const risky = index.entries.filter(isRisky).length / index.entries.length;
    expect(risky).toBeGreaterThan(0.35);
    expect(risky).toBeLessThan(0.65);
    for (const b of BANDS) expect(index.entries.some((e) => e.expected_band === b)).toBe(true);
  });

  it('is mostly manifests the engine was not built on (few taken from the shared samples)', () => {
    const fromSamples = index.entries.filter((e) => e.from_samples).length;
    expect(fromSamples / index.entries.length).toBeLessThan(0.1);
  });

  it('records that expectations were written before the engine was run', () => {
    expect(index.expectations.engine_run_before_writing).toBe(false);
    expect(index.history.length).toBeGreaterThan(0);
  });

  it('has non-empty manifests with no live-looking secrets', () => {
    // common live credential shapes; placeholders like YOUR_TOKEN or ${VAR} do not match
    const secret =
      /\b(?:ghp_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|sk-(?:proj-)?[A-Za-z0-9]{32,}|hf_[A-Za-z0-9]{30,}|AKIA[0-9A-Z]{16}|xox[bp]-[A-Za-z0-9-]{20,}|AIza[0-9A-Za-z_-]{35})\b/;
    for (const e of index.entries) {
      const text = readManifest(e);
      expect(text.trim().length).toBeGreaterThan(0);
      expect({ id: e.id, secret: secret.exec(text)?.[0] ?? null }).toEqual({ id: e.id, secret: null });
    }
  });

  it('scoreboard arithmetic: confusion matrix totals and agreement on a two-entry corpus', () => {
    const two: CorpusIndex = { ...index, entries: index.entries.slice(0, 2) };
    const board = scoreCorpus(
      two,
      two.entries.map((e) => runEntry(two, e)),
    );
    expect(board.matrix.flat().reduce((a, c) => a + c, 0)).toBe(2);
    expect(board.exact).toBeGreaterThanOrEqual(0);
    expect(board.withinOne).toBeGreaterThanOrEqual(board.exact);
    expect(renderReport(two, board)).toContain('Confusion matrix');
    expect(NEUTRAL_CONTEXT.threats).toEqual([]);
  });
});
