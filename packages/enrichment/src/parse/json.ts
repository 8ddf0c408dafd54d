// Readers for the formats recognised by their JSON (or YAML) shape: listings, tool lists, weight indexes, Hugging Face
// and diffusers configs, Keras, tokenizer and onnxruntime-genai configs. Which shape is which format is decided by the
// format registry (src/formats/); these fill the ParsedManifest.
import type { EnrichmentInput, ParsedManifest } from '../types';
import { isObj, str, strList, type Obj } from '../util';
import { append, filesFrom } from './common';

/** A Hugging Face Hub repository id: `owner/name`, nothing else. */
const HUB_ID = /^[\w.-]{1,96}\/[\w.-]{1,96}$/;

/** A JSON array of paths (strings, or `{path}` / `{rfilename}` objects: the Hub's siblings). */
export function isPathList(j: unknown): j is unknown[] {
  return (
    Array.isArray(j) &&
    j.every(
      (x) => typeof x === 'string' || (isObj(x) && (typeof x.path === 'string' || typeof x.rfilename === 'string')),
    )
  );
}

export function parsePathList(p: ParsedManifest, j: unknown[]): void {
  append(p.files, filesFrom(j));
}

export function parseWeightIndex(p: ParsedManifest, j: Obj): void {
  const seen = new Set<string>();
  const map = isObj(j.weight_map) ? j.weight_map : {};
  for (const k of Object.keys(map)) {
    const f = map[k];
    if (typeof f === 'string') seen.add(f);
  }
  for (const f of [...seen].sort()) p.files.push({ path: f });
}

/** A diffusers `model_index.json`: the pipeline class and the library version that saved it. */
/** `["module", "Class"]`: how a diffusers index names a component, and a pipeline kept in a repository module. */
function moduleClass(v: unknown): [string | null, string] | null {
  if (!Array.isArray(v) || v.length !== 2 || typeof v[1] !== 'string') return null;
  return [typeof v[0] === 'string' ? v[0] : null, v[1]];
}

/** Libraries whose classes a diffusers index may name without importing repository code. */
const DIFFUSERS_LIBRARIES = new Set(['diffusers', 'transformers', 'stable_diffusion', 'diffusers.pipelines']);

export function isDiffusersIndex(j: Obj): boolean {
  return (typeof j._class_name === 'string' || moduleClass(j._class_name) !== null) && '_diffusers_version' in j;
}

/**
 * The classes a diffusers index loads: its pipeline first, then every component taken from a module that is not a
 * library (`["interactdiffusion_unet_2d_condition", "…UNet…"]`), both as `module.Class` when a module is named — a
 * module-qualified entry is repository code that `from_pretrained` imports (custom_pipeline / trust_remote_code).
 */
function diffusersClasses(j: Obj): string[] {
  const named = moduleClass(j._class_name);
  const pipeline = typeof j._class_name === 'string' ? j._class_name : named ? named.filter(Boolean).join('.') : '';
  const custom: string[] = [];
  for (const [k, v] of Object.entries(j).slice(0, 50)) {
    const mc = k.startsWith('_') ? null : moduleClass(v);
    if (mc && mc[0] && !DIFFUSERS_LIBRARIES.has(mc[0])) custom.push(`${mc[0]}.${mc[1]}`);
  }
  return [pipeline, ...custom];
}

export function parseHfConfig(p: ParsedManifest, j: Obj, input: EnrichmentInput): void {
  if (isDiffusersIndex(j)) {
    // diffusers model_index.json: the pipeline class and its components
    p.config = {
      architectures: diffusersClasses(j),
      model_type: 'diffusers',
      name_or_path: str(j._name_or_path),
      auto_map: null,
      transformers_version: null,
    };
    return;
  }
  p.config = {
    architectures: strList(j.architectures),
    model_type: str(j.model_type),
    name_or_path: str(j._name_or_path),
    auto_map: isObj(j.auto_map) ? j.auto_map : null,
    transformers_version: str(j.transformers_version),
  };
  if (typeof j.custom_ops_library === 'string') p.custom_ops.push(j.custom_ops_library);
  // `_name_or_path` is where the weights were loaded from before this config was saved: for a fine-tune, its base
  // Only a Hub id (`owner/name`) of another model than the named asset: local paths name
  // nothing, an unnamed asset cannot be told apart from its own id, and the same name under another owner is a
  // copy (R14), not a parent
  const origin = p.config.name_or_path;
  const own = (input.name ?? '').toLowerCase();
  const repo = (id: string): string => id.slice(id.lastIndexOf('/') + 1).toLowerCase();
  if (origin && own && HUB_ID.test(origin) && repo(origin) !== repo(own)) p.base_models = [origin];
}

export function parseKerasConfig(p: ParsedManifest, j: Obj): void {
  p.keras_config = j;
}

export function parseTokenizerConfig(p: ParsedManifest, j: Obj): void {
  p.chat_template = typeof j.chat_template === 'string' ? j.chat_template : JSON.stringify(j.chat_template);
}

export function parseOnnxGenaiConfig(p: ParsedManifest, j: Obj): void {
  const model = isObj(j.model) ? j.model : {};
  const co = str(j.custom_ops_library) ?? str(model.custom_ops_library);
  if (co) p.custom_ops.push(co);
}
