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
      (c) => (isObj(c) ? capItems(c.matches) : []),
    ),
  };
  p.extension = ext;
}

/** Match patterns that reach every site (MDN "Match patterns"). */
export function isBroadHostPattern(m: string): boolean {
  return /^(?:<all_urls>|(?:\*|https?|wss?):\/\/\*\/.*)$/.test(m);
}
