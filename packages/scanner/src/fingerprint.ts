// Stable asset fingerprints (docs/scanner.md "Fingerprints"): computed from what the asset is, never from where it was
// found, so the same asset found twice in a tree or on two machines gets one key — the platform keys assets globally by
// fingerprint (docs/public-api.md), so two scans that agree here agree there.
import { createHash } from 'node:crypto';

/** `sha256:` + the hex digest of the parts joined by NUL (the shape the API documents for fingerprints). */
export function fingerprintOf(...parts: ReadonlyArray<string | null | undefined>): string {
  return `sha256:${createHash('sha256')
    .update(parts.map((p) => p ?? '').join('\0'))
    .digest('hex')}`;
}

/** Text as compared across machines: line endings folded, trailing blanks dropped. */
export function canonicalText(text: string): string {
  // trailing blanks are cut line by line: a `[ \t]+$` pattern rescans a long blank run from every start
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}
