// What a file is (docs/scanner.md "What is read"): a manifest the engine reads — recognised by the engine's own format
// registry, content first and the file name second — the METADATA of an installed AI package, a model file recognised
// by its magic bytes (@risk/artifacts' detect), or nothing. Reads are bounded: manifests up to the API's raw-manifest
// cap, model heads up to a few KiB.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { detect } from '@risk/artifacts';

type DetectedKind = ReturnType<typeof detect>;
import { FORMATS, ManifestDocument, recognise } from '@risk/enrichment/src/formats';
import type { EnrichmentInput } from '@risk/enrichment';

/** The largest manifest read (the API's raw_manifest cap, docs/public-api.md). */
export const MANIFEST_MAX_BYTES = 1024 * 1024;
/** A recognition below this confidence is content no format really claimed. */
const MIN_CONFIDENCE = 0.5;
/** Extensions worth asking the registry about even when no format names the file. */
const DATA_EXTENSIONS = new Set(['.json', '.jsonc', '.yaml', '.yml', '.toml']);
/** Bytes read from a file's head to tell a model file by its magic. */
const HEAD_BYTES = 4096;
/** Magic kinds that are model or tensor files by themselves. */
const MODEL_KINDS = new Set<DetectedKind>([
  'pickle',
  'pytorch_legacy',
  'npy',
  'hdf5',
  'gguf',
  'safetensors',
  'onnx',
  'savedmodel',
  'joblib_zfile',
]);
/** Archives count as model files only under a model extension (a zip is also a .docx or a .jar). */
const MODEL_ARCHIVE_EXTENSIONS = new Set([
  '.pt',
  '.pth',
  '.bin',
  '.ckpt',
  '.keras',
  '.npz',
  '.pkl',
  '.joblib',
  '.nemo',
  '.mar',
]);
/** Source and text files never hold a model; their heads are not read. */
const TEXT_EXTENSIONS = new Set([
  '.ts',
  '.tsx',
  '.js',
  '.mjs',
  '.cjs',
  '.jsx',
  '.py',
  '.md',
  '.txt',
  '.rs',
  '.go',
  '.java',
  '.c',
  '.h',
  '.cpp',
  '.css',
  '.html',
  '.svg',
  '.sql',
  '.sh',
  '.lock',
  '.xml',
  '.csv',
  '.map',
  '.ini',
  '.cfg',
  '.rst',
  '.toml',
  '.json',
  '.yaml',
  '.yml',
  '.ipynb',
]);
const NAMED = FORMATS.map((f) => f.names).filter((n): n is RegExp => n !== null);

export type Classified =
  | { kind: 'manifest'; format: string; family: string; text: string; confidence: number }
  | { kind: 'dist_info'; text: string }
  | { kind: 'model_file'; detected: DetectedKind }
  | { kind: 'none' };

export function isManifestCandidate(rel: string): boolean {
  const base = path.posix.basename(rel);
  if (NAMED.some((re) => re.test(base))) return true;
  return DATA_EXTENSIONS.has(path.posix.extname(base).toLowerCase());
}

function isDistInfoMetadata(rel: string): boolean {
  return /(^|\/)[^/]+\.dist-info\/METADATA$/.test(rel);
}

async function readHead(abs: string, bytes: number): Promise<Buffer> {
  const fh = await open(abs, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Recognises a manifest text with the engine's registry, as the engine will when it analyses it. */
export function recogniseManifest(
  text: string,
  fileName: string,
): { format: string; family: string; confidence: number } | null {
  const input: EnrichmentInput = { fingerprint: 'scan', asset_type: 'application', metadata: { filename: fileName } };
  const r = recognise(new ManifestDocument(text, fileName), input);
  if (r.format.family === 'generic' || r.confidence < MIN_CONFIDENCE) return null;
  return { format: r.format.id, family: r.format.family, confidence: r.confidence };
}

export async function classify(abs: string, rel: string, size: number): Promise<Classified> {
  if (size === 0) return { kind: 'none' };
  if (isDistInfoMetadata(rel)) {
    if (size > MANIFEST_MAX_BYTES) return { kind: 'none' };
    return { kind: 'dist_info', text: (await readHead(abs, size)).toString('utf8') };
  }
  const base = path.posix.basename(rel);
  const ext = path.posix.extname(base).toLowerCase();
  if (isManifestCandidate(rel) && size <= MANIFEST_MAX_BYTES) {
    const text = (await readHead(abs, size)).toString('utf8');
    if (text.includes('\u0000')) return { kind: 'none' };
    const r = recogniseManifest(text, base);
    if (r) return { kind: 'manifest', text, ...r };
    return { kind: 'none' };
  }
  if (TEXT_EXTENSIONS.has(ext) || size < 16) return { kind: 'none' };
  const head = await readHead(abs, Math.min(HEAD_BYTES, size));
  const detected = detect(head, size);
  if (MODEL_KINDS.has(detected)) return { kind: 'model_file', detected };
  if (detected === 'zip' && MODEL_ARCHIVE_EXTENSIONS.has(ext)) return { kind: 'model_file', detected };
  return { kind: 'none' };
}
