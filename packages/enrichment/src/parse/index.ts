// Manifest parsing: one module per format family (docs/enrichment.md "Manifests recognised").
import type { EnrichmentInput, ParsedManifest } from '../types';
import { capParsed } from '../limits';
import { isObj, str, strList } from '../util';
import { append, emptyParsed, filesFrom, licenseFromValue, toolsFrom } from './common';
import { applyNpmLock } from './packages-npm';
import { readManifest } from '../formats/registry';

/**
 * Parse raw_manifest + metadata: the format registry (src/formats/) recognises the manifest and reads it. Never throws
 * (errors end up in parse_errors).
 */
export function parseManifest(input: EnrichmentInput): ParsedManifest {
  const p = emptyParsed();
  const raw = typeof input.raw_manifest === 'string' ? input.raw_manifest : '';
  try {
    if (raw.trim() !== '') readManifest(p, raw, input);
  } catch (e) {
    p.parse_errors.push(`parser: ${(e as Error).message}`);
  }
  try {
    mergeMetadata(p, input.metadata ?? null);
  } catch (e) {
    p.parse_errors.push(`metadata: ${(e as Error).message}`);
  }
  p.truncated = capParsed(p);
  return p;
}

function mergeMetadata(p: ParsedManifest, md: Record<string, unknown> | null): void {
  if (!md || !isObj(md)) return;
  append(p.files, filesFrom(md.files ?? md.siblings));
  if (p.licenses.length === 0) p.licenses = licenseFromValue(md.license);
  if (p.base_models.length === 0) p.base_models = strList(md.base_model);
  p.base_model_relation = p.base_model_relation ?? str(md.base_model_relation);
  if (p.datasets.length === 0) p.datasets = strList(md.datasets);
  p.tags = p.tags.concat(strList(md.tags));
  p.pipeline_tag = p.pipeline_tag ?? str(md.pipeline_tag);
  p.library_name = p.library_name ?? str(md.library_name);
  p.commit = str(md.sha) ?? str(md.commit) ?? str(md.revision);
  const pi = md.pickle_imports ?? md.pickle_globals;
  if (Array.isArray(pi)) {
    for (const x of pi) {
      if (typeof x === 'string') p.pickle_imports.push(x.trim().replace(/\s+/, '.'));
      else if (isObj(x) && str(x.module)) p.pickle_imports.push(`${str(x.module)}.${str(x.name) ?? '*'}`);
    }
  }
  const gguf = isObj(md.gguf) ? md.gguf : null;
  const ct = str(md.chat_template) ?? (gguf ? str(gguf['tokenizer.chat_template']) : null);
  if (ct) p.chat_template = ct;
  if (md.keras_config !== undefined) p.keras_config = md.keras_config;
  if (Array.isArray(md.tools)) append(p.tools, toolsFrom(md.tools));
  const co = str(md.custom_ops_library);
  if (co) p.custom_ops.push(co);
  if (!p.repository_url) p.repository_url = str(md.repository) ?? str(md.repository_url);
  // a package.json submitted with its lock
  if (p.kind === 'npm_package' && isObj(md.package_lock)) applyNpmLock(p, md.package_lock);
}

export { emptyParsed } from './common';
export { PROSE_LICENSE } from './card';
export { modelfileDirective } from './modelfile';
export { removeVersionOperators, REQ_LINE, TOML_HINT } from './packages';
