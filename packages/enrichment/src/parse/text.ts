// Text manifests told apart by content: cards, TOML, Dockerfiles, setup.cfg, Modelfiles, file listings,
// requirements, YAML, and prose as the fallback.
// Every pattern here runs on tenant content: each is linear in V8 (checked by `pnpm check:redos`; the rewrites and
// their timings are in docs/security.md "Linear-time parsing and caps").
import { identifyLicenceText } from '../license';
import type { EnrichmentInput, ParsedManifest } from '../types';
import { isObj, type Obj } from '../util';
import { parseCard, parseModelIndexCard, proseLicense } from './card';
import { append, genericNameVersion } from './common';
import { classifyJson } from './json';
import { modelfileDirective, parseModelfile } from './modelfile';
import { isUvLock, parsePyproject, parseRequirements, parseSetupCfg, parseUvLock, TOML_HINT } from './packages';
import { parseYaml } from './yaml';
import { isCompose, looksLikeDockerfile, looksLikeSetupCfg, parseCompose, parseDockerfile } from '../formats';
// smol-toml ships a CJS build (exports.require) but its typings are ESM-only, so load it with require.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parse: parseToml } = require('smol-toml') as { parse: (s: string) => unknown };

const FILE_NAME_LINE =
  /^[\w./@+-]+\.(?:bin|pt|pth|pkl|pickle|ckpt|joblib|dill|safetensors|gguf|ggml|onnx|h5|keras|pb|npy|npz|json|md|txt|py|model|tflite|mlmodel|msgpack|so|dll|dylib|zip|tar|gz)$/i;
const PATH_LINE = /^[\w./@+-]+$/;
const WEIGHT_FILE =
  /\.(?:bin|pt|pth|pkl|pickle|ckpt|joblib|dill|safetensors|gguf|ggml|onnx|h5|keras|tflite|mlmodel|msgpack)$/i;
const YAML_FIRST_LINE = /^[\w."'-]+\s*:(\s|$)/;

export function parseText(p: ParsedManifest, text: string, input: EnrichmentInput): void {
  if (parseCard(p, text, input)) return;
  const trimmed = text.trimStart();
  if (TOML_HINT.test(text)) {
    try {
      const t = parseToml(text) as Obj;
      p.format = 'toml';
      p.raw_json = t;
      if (isUvLock(t)) parseUvLock(p, t);
      else if (
        isObj(t.project) ||
        isObj(t['dependency-groups']) ||
        (isObj(t.tool) && (isObj(t.tool.poetry) || isObj(t.tool.uv)))
      )
        parsePyproject(p, t);
      else {
        p.kind = 'toml';
        genericNameVersion(p, isObj(t.package) ? { ...t, ...t.package } : t);
      } // Cargo-style [package]
      return;
    } catch (e) {
      p.parse_errors.push(`toml: ${(e as Error).message.split('\n')[0] ?? 'invalid TOML'}`);
    }
  }
  const textLines = text.split(/\r?\n/); // split once: a 1 MiB run of newlines is a million lines
  const firstLine = (textLines.find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? '').trim();
  if (looksLikeDockerfile(text, firstLine)) {
    parseDockerfile(p, text);
    return;
  }
  if (looksLikeSetupCfg(text)) {
    parseSetupCfg(p, text);
    return;
  }
  if (
    /^(?:FROM|from)\s+\S+$/.test(firstLine) ||
    (/^[A-Z]+\s/.test(firstLine) && modelfileDirective(firstLine) !== null && /^FROM\s+\S+\s*$/m.test(text))
  ) {
    if (parseModelfile(p, text)) return;
  }
  const lines = textLines.map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  // a repository listing: every line one path, with at least one model-weight file (extension-less entries such as
  // `latest` and config files like `.yaml` included); checked before requirements, whose bare names look alike
  if (
    lines.length > 0 &&
    (lines.every((l) => FILE_NAME_LINE.test(l)) ||
      (lines.length >= 3 && lines.every((l) => PATH_LINE.test(l)) && lines.some((l) => WEIGHT_FILE.test(l))))
  ) {
    p.kind = 'file_listing';
    p.format = 'text';
    append(
      p.files,
      lines.map((l) => ({ path: l })),
    );
    return;
  }
  if (parseRequirements(p, textLines, lines)) return;
  // the first line that is not a comment: compose files often open with a comment block
  if (YAML_FIRST_LINE.test(trimmed.split(/\r?\n/, 1)[0] ?? '') || YAML_FIRST_LINE.test(firstLine)) {
    try {
      const y: unknown = parseYaml(text);
      if (isObj(y)) {
        p.format = 'yaml';
        if (isCompose(y)) {
          parseCompose(p, y);
          return;
        }
        classifyJson(p, y, input);
        p.format = 'yaml';
        if (p.kind === 'json') {
          if ('license' in y || 'base_model' in y || 'model-index' in y || 'pipeline_tag' in y) {
            p.kind = input.asset_type === 'dataset' ? 'hf_dataset_card' : 'hf_model_card';
            parseModelIndexCard(p, y, '');
          } else p.kind = 'yaml';
        }
        return;
      }
    } catch (e) {
      p.parse_errors.push(`yaml: ${(e as Error).message.split('\n')[0] ?? 'invalid YAML'}`);
    }
  }
  p.format = /^#{1,6}\s/m.test(text) ? 'markdown' : 'text';
  p.kind =
    (input.asset_type === 'model' || input.asset_type === 'dataset') && p.format === 'markdown'
      ? input.asset_type === 'dataset'
        ? 'hf_dataset_card'
        : 'hf_model_card'
      : 'text';
  p.body = text;
  const pl = proseLicense(text);
  if (pl) {
    p.licenses = [pl];
    p.license_text = 'prose';
  }
  if (
    p.kind === 'text' &&
    /\blicen[sc]e\b/i.test(text.slice(0, 400)) &&
    /\b(grant|licensor|permission|redistribut)/i.test(text)
  ) {
    p.license_text = text.length > 4000 ? text.slice(0, 4000) : text;
    // a licence file: which licence it is, when its wording says so (MIT, Apache-2.0, Llama 2 …)
    const id = p.licenses.length === 0 ? identifyLicenceText(text) : null;
    if (id) p.licenses = [id];
  }
  // a listing of file names, one a line
  if (p.kind === 'text' && lines.length > 0 && lines.every((l) => /^[\w./@+-]+\.[A-Za-z0-9]{1,12}$/.test(l))) {
    p.kind = 'file_listing';
    append(
      p.files,
      lines.map((l) => ({ path: l })),
    );
  }
  // prose submitted for a model or dataset, neither a licence nor a listing, is its card's body (a README without
  // front matter or headings): card rules (licence, safety, lineage) read it instead of "not analysed"
  if (p.kind === 'text' && !p.license_text && (input.asset_type === 'model' || input.asset_type === 'dataset'))
    p.kind = input.asset_type === 'dataset' ? 'hf_dataset_card' : 'hf_model_card';
}
