// Browser extension manifest.json (WebExtensions, MV2 and MV3): permissions, host permissions, content script matches.
import type { ExtensionSpec, ParsedManifest } from '../types';
import { isObj, str, type Obj } from '../util';
import { capItems, MAX_PATTERNS } from './common';

/** A WebExtension manifest.json: `manifest_version` 2 or 3 and extension-only keys. */
export function isExtensionManifest(j: Obj): boolean {
  return (
    (j.manifest_version === 2 || j.manifest_version === 3) &&
    ('permissions' in j ||
      'content_scripts' in j ||
      'background' in j ||
      'host_permissions' in j ||
      'action' in j ||
      'browser_action' in j)
  );
}

export function parseExtension(p: ParsedManifest, j: Obj): void {
  p.name = str(j.name);
  p.version = str(j.version);
  p.description = str(j.description);
  const perms = capItems(j.permissions);
  const ext: ExtensionSpec = {
    manifest_version: j.manifest_version === 2 ? 2 : 3,
    // MV2 puts host patterns in `permissions`
    permissions: perms.filter((x) => !x.includes('/') && x !== '<all_urls>'),
    host_permissions: [...capItems(j.host_permissions), ...perms.filter((x) => x.includes('/') || x === '<all_urls>')],
    content_script_matches: (Array.isArray(j.content_scripts) ? j.content_scripts.slice(0, MAX_PATTERNS) : []).flatMap(
      (c) => (isObj(c) ? scriptPatterns(c) : []),
    ),
  };
  p.extension = ext;
}

// a glob that names a host (`*.google.*/…`, `https://kagi.com/…`), not every site (`*`, `*://*/…`)
const HOST_GLOB = /(?:^|[^a-z0-9-])[a-z0-9-]{2,63}\.[a-z0-9*]/i;

/**
 * Where one content script runs. `include_globs` applies after `matches` and keeps only the URLs that also match a glob
 * (Chrome extensions reference, "Content scripts: matches and globs"), so when every glob names a host the globs, not
 * the broader `matches`, say which sites the script reads.
 */
function scriptPatterns(c: Obj): string[] {
  const matches = capItems(c.matches);
  const globs = capItems(c.include_globs);
  return globs.length && globs.every((g) => HOST_GLOB.test(g)) ? globs : matches;
}

/** Match patterns that reach every site (MDN "Match patterns"). */
export function isBroadHostPattern(m: string): boolean {
  return /^(?:<all_urls>|(?:\*|https?|wss?):\/\/\*\/.*)$/.test(m);
}
