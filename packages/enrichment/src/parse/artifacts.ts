// The files a signal names by content hash (`artifacts`; docs/artifacts.md "Judgement") joined to the parsed file list.
import { LIMITS } from '../limits';
import type { ArtifactRef, EnrichmentInput, ParsedManifest } from '../types';
import { filesFrom } from './common';

/**
 * The signal's named artifacts join the file list: a listed file with the same path takes the artifact's hash and size
 * (the hash the signal names explicitly wins over one in `metadata.files`), the others come first, so no later cap on
 * files or AI-BOM components drops a named artifact. At most LIMITS.files artifacts are read (the API accepts fewer).
 */
export function mergeArtifacts(p: ParsedManifest, artifacts: EnrichmentInput['artifacts']): void {
  if (!artifacts || artifacts.length === 0) return;
  const byPath = new Map(p.files.map((f) => [f.path, f]));
  const added: ParsedManifest['files'] = [];
  for (const a of artifacts.slice(0, LIMITS.files)) {
    const sha256 = a.sha256.toLowerCase();
    const listed = byPath.get(a.path);
    if (listed) {
      listed.sha256 = sha256;
      listed.size = a.size;
      continue;
    }
    const f = { path: a.path, size: a.size, sha256 };
    byPath.set(a.path, f);
    added.push(f);
  }
  p.files = [...added, ...p.files];
}

/** At most this many hashes are read per asset (the API accepts 1,000 artifacts per signal, plus metadata.files). */
export const MAX_NAMED_ARTIFACTS = 2000;

/**
 * The files a set of observations names by SHA-256 — the signal's `artifacts` first, then `metadata.files[].sha256`
 * (or a Hugging Face listing's `lfs.sha256`) — once per hash, the first path naming it kept. The worker records these
 * for the asset and reads their verdicts in one query (docs/artifacts.md "Judgement").
 */
export function namedArtifacts(inputs: readonly EnrichmentInput[]): ArtifactRef[] {
  const out = new Map<string, ArtifactRef>();
  const add = (path: string, sha256: string | undefined, size: number | undefined): void => {
    if (!sha256 || out.size >= MAX_NAMED_ARTIFACTS) return;
    const sha = sha256.toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(sha) || out.has(sha)) return;
    out.set(sha, { path, sha256: sha, size: typeof size === 'number' && size >= 0 ? size : 0 });
  };
  for (const i of inputs) for (const a of i.artifacts ?? []) add(a.path, a.sha256, a.size);
  for (const i of inputs) {
    const md = i.metadata;
    if (!md || typeof md !== 'object') continue;
    for (const f of filesFrom(md.files ?? md.siblings)) add(f.path, f.sha256, f.size);
  }
  return [...out.values()];
}
