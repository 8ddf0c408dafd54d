// Manifest formats: the registry (src/formats/registry.ts) and what rules ask of a format.
export {
  CORPUS_FORMATS,
  FORMATS,
  carries,
  fileNameOf,
  formatById,
  formatEcosystem,
  inFamily,
  recognise,
} from './registry';
export { CARRIES, type FormatDefinition } from './define';
export { ManifestDocument } from './document';
// a browser extension's match patterns that reach every site: read by the capability and credential rules
export { isBroadHostPattern } from '../parse/extension';
