// Browser extension manifests (WebExtensions MV2 and MV3; docs/enrichment.md "Manifests recognised").
import type { Obj } from '../util';
import { isExtensionManifest, parseExtension } from '../parse/extension';
import { defineFormat } from './define';
import { dataObject, fromData } from './shapes';

export const BROWSER_EXTENSION = defineFormat({
  id: 'browser_extension',
  title: 'Browser extension manifest.json',
  family: 'extension',
  syntax: ['json'],
  summary:
    'MV2 and MV3: API permissions, host permissions (MV2 keeps them in `permissions`) and content script matches',
  names: /^manifest\.json$/i,
  recognise: (doc) => {
    const j = dataObject(doc);
    return j && isExtensionManifest(j) ? 0.98 : 0;
  },
  parse: fromData<Obj>(parseExtension),
  carries: ['endpoints'],
  corpus: { name: 'browser_extension_manifest', subformats: ['mv2', 'mv3'], example: 'c059' },
  notes: '`manifest_version` 2 or 3 with an extension-only key; an MCPB manifest has a `server` instead.',
});
