// One scan: walk each root, classify each file, analyse model files, group into assets and judge them offline
// (docs/scanner.md). Memory grows with the assets found, not with the tree: files are visited one at a time and model
// files are hashed and analysed by random access (@risk/artifacts analyseFile).
import path from 'node:path';
import { analyseFile } from '@risk/artifacts';
import { AI_PYTHON_PACKAGES, normalisePythonName, readCoreMetadata } from './ai-packages';
import { AssetCollector } from './assets';
import { classify } from './classify';
import { judge, type JudgedAsset } from './judge';
import { emptyStats, walk, type WalkOptions, type WalkStats } from './walk';

export interface ScanOptions extends WalkOptions {
  /** model files larger than this are listed as skipped, not hashed */
  maxFileBytes: number;
  now: string;
  onProgress?: (p: { files: number; bytes: number; current: string }) => void;
}

export interface SkippedFile {
  path: string;
  size: number;
  reason: string;
}

export interface ScanResult {
  assets: JudgedAsset[];
  stats: WalkStats & { bytes_hashed: number; model_files: number; manifests: number };
  skipped: SkippedFile[];
}

export interface ScanRoot {
  /** directory on disk */
  dir: string;
  /** how its files are named in the output (`.` for the working directory, `~` for a home) */
  label: string;
}

export function displayPath(root: ScanRoot, rel: string): string {
  return root.label === '.' ? rel : `${root.label}/${rel}`;
}

/** Feeds one file to the collector; returns the bytes hashed. */
/** Where a scan puts what it finds: the assets being grouped and the counts being kept. */
export interface ScanSink {
  collector: AssetCollector;
  result: ScanResult;
  maxFileBytes: number;
  /** where each hashed model file is on disk, by SHA-256 (online mode uploads from it) */
  files?: Map<string, string>;
}

/** One file found on disk: where it is, how it is shown, its size. */
export interface FoundFile {
  abs: string;
  shown: string;
  size: number;
}

export async function collectFile(sink: ScanSink, file: FoundFile): Promise<void> {
  const { collector, result } = sink;
  const { abs, shown, size } = file;
  const opts = sink;
  let c;
  try {
    c = await classify(abs, shown, size);
  } catch (e) {
    result.stats.errors.push(`${shown}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`);
    return;
  }
  if (c.kind === 'manifest') {
    result.stats.manifests++;
    collector.addManifest(shown, c.text, c.format);
  } else if (c.kind === 'dist_info') {
    const md = readCoreMetadata(c.text);
    if (md && AI_PYTHON_PACKAGES.has(normalisePythonName(md.name))) {
      result.stats.manifests++;
      collector.addDistInfo(shown, md.name, md.version);
    }
  } else if (c.kind === 'model_file') {
    if (size > opts.maxFileBytes) {
      result.skipped.push({ path: shown, size, reason: `larger than --max-file-size (${opts.maxFileBytes} bytes)` });
      return;
    }
    try {
      const r = await analyseFile(abs);
      result.stats.model_files++;
      result.stats.bytes_hashed += r.size;
      collector.addModelFile(shown, r);
      sink.files?.set(r.sha256, abs);
    } catch (e) {
      result.stats.errors.push(`${shown}: ${(e as Error).message.slice(0, 200)}`);
    }
  }
}

export function emptyResult(): ScanResult {
  return { assets: [], stats: { ...emptyStats(), bytes_hashed: 0, model_files: 0, manifests: 0 }, skipped: [] };
}

export async function scanTrees(
  roots: readonly ScanRoot[],
  opts: ScanOptions,
  into: { collector?: AssetCollector; result?: ScanResult; files?: Map<string, string> } = {},
): Promise<ScanResult> {
  const collector = into.collector ?? new AssetCollector();
  const result = into.result ?? emptyResult();
  const sink: ScanSink = { collector, result, maxFileBytes: opts.maxFileBytes, files: into.files };
  let bytes = 0;
  for (const root of roots) {
    const stats = emptyStats();
    stats.files = result.stats.files;
    for await (const f of walk(root.dir, { ...opts, maxFiles: opts.maxFiles }, stats)) {
      const shown = displayPath(root, f.rel);
      bytes += f.size;
      opts.onProgress?.({ files: stats.files, bytes, current: shown });
      await collectFile(sink, { abs: f.abs, shown, size: f.size });
    }
    result.stats.files = stats.files;
    result.stats.directories += stats.directories;
    result.stats.skipped_dirs += stats.skipped_dirs;
    result.stats.ignored += stats.ignored;
    result.stats.symlinks_outside += stats.symlinks_outside;
    result.stats.truncated ||= stats.truncated;
    result.stats.errors.push(...stats.errors.map((e) => `${root.label}: ${e}`));
  }
  result.assets = collector.assets().map((a) => judge(a, opts.now));
  return result;
}

export function rootFor(dir: string, cwd: string): ScanRoot {
  const rel = path.relative(cwd, path.resolve(cwd, dir));
  return { dir: path.resolve(cwd, dir), label: rel === '' ? '.' : rel.split(path.sep).join('/') };
}
