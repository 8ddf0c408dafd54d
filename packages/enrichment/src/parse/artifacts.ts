// The files a signal names by content hash (`artifacts`; docs/artifacts.md "Judgement") joined to the parsed file list.
import { LIMITS } from '../limits';
import type { EnrichmentInput, ParsedManifest } from '../types';

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
