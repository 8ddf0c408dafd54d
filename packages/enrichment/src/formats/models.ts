// Model formats: Hugging Face cards and configs, weight indexes and file listings, Keras, tokenizer and
// onnxruntime-genai configs, Ollama Modelfiles (docs/enrichment.md "Manifests recognised").
import type { EnrichmentInput } from '../types';
import { isObj, type Obj } from '../util';
import { hasHeadings, parseCard, parseModelIndexCard, proseLicense } from '../parse/card';
import { append, filesFrom, genericNameVersion } from '../parse/common';
import {
  isDiffusersIndex,
  isPathList,
  parseHfConfig,
  parseKerasConfig,
  parseOnnxGenaiConfig,
  parsePathList,
  parseTokenizerConfig,
  parseWeightIndex,
} from '../parse/json';
import { modelfileDirective, parseModelfile, readModelfile, type Modelfile } from '../parse/modelfile';
import { isLicenceText } from '../parse/text';
import { defineFormat } from './define';
import type { ManifestDocument } from './document';
import { dataObject, fromData } from './shapes';

/** Front-matter keys of a model or dataset card given as bare YAML (no `---` block, no body). */
const CARD_KEYS = ['license', 'base_model', 'model-index', 'pipeline_tag'];

/**
 * A card: YAML front matter (0.95 for a model or dataset, 0.7 for another asset, 0.5 when it is not a YAML mapping); a YAML document with card keys and nothing better (0.45); prose submitted for a
 * model or dataset that is neither a licence file nor a licence statement, or that has headings (0.3).
 */
function cardConfidence(doc: ManifestDocument, input: EnrichmentInput, dataset: boolean): number {
  if ((input.asset_type === 'dataset') !== dataset) return 0;
  const fm = doc.frontMatter();
  if (fm) {
    if (fm.data && isObj(fm.data.mcpServers)) return 0;
    // invalid or scalar front matter is still a card, but any format that explains most of the text is surer; and a
    // card is what models and datasets have: another asset's README with front matter yields to a manifest format
    if (!fm.data) return 0.5;
    return input.asset_type === 'model' || input.asset_type === 'dataset' ? 0.95 : 0.7;
  }
  const d = doc.data();
  if (d) return d.syntax === 'yaml' && isObj(d.value) && CARD_KEYS.some((k) => k in (d.value as Obj)) ? 0.45 : 0;
  if (doc.structured || (input.asset_type !== 'model' && input.asset_type !== 'dataset')) return 0;
  return hasHeadings(doc.raw) || (!isLicenceText(doc.raw) && !proseLicense(doc.raw)) ? 0.3 : 0;
}

function parseAnyCard(p: Parameters<typeof parseCard>[0], doc: ManifestDocument): void {
  const fm = doc.frontMatter();
  if (fm) {
    p.format = 'markdown';
    parseCard(p, fm.data, fm.body);
    return;
  }
  const d = doc.data();
  if (d && isObj(d.value)) {
    // a card's metadata as a YAML document
    p.format = 'yaml';
    p.raw_json = d.value;
    genericNameVersion(p, d.value);
    parseModelIndexCard(p, d.value, '');
    return;
  }
  // prose: the body and the licence it states
  p.format = hasHeadings(doc.raw) ? 'markdown' : 'text';
  p.body = doc.raw;
  const pl = proseLicense(doc.raw);
  if (pl) {
    p.licenses = [pl];
    p.license_text = 'prose';
  }
}

const CARD_SUMMARY =
  'YAML front matter (licence, `license_name`, base models and relation, datasets, tags, pipeline tag, library, model-index, `model_file`, chat template) and the body (licence and lineage stated in prose); a card without front matter is read from its prose';

export const HF_MODEL_CARD = defineFormat({
  id: 'hf_model_card',
  title: 'Hugging Face model card',
  family: 'model',
  syntax: ['markdown', 'yaml'],
  summary: CARD_SUMMARY,
  names: /^readme\.md$/i,
  recognise: (doc, ctx) => cardConfidence(doc, ctx.input, false),
  parse: (p, doc) => parseAnyCard(p, doc),
  carries: ['licence', 'artifacts', 'lineage'],
  corpus: { name: 'hf_model_card', example: 'c091' },
  notes:
    'Also the fallback for prose submitted as a model: a README without front matter is still its card, so licence and safety rules read it.',
});

export const HF_DATASET_CARD = defineFormat({
  id: 'hf_dataset_card',
  title: 'Hugging Face dataset card',
  family: 'model',
  syntax: ['markdown', 'yaml'],
  summary: `${CARD_SUMMARY}; chosen over the model card when the asset is a dataset`,
  names: /^readme\.md$/i,
  recognise: (doc, ctx) => cardConfidence(doc, ctx.input, true),
  parse: (p, doc) => parseAnyCard(p, doc),
  carries: ['licence'],
  example: '---\nlicense: cc-by-nc-4.0\ntask_categories: [text-generation]\nlanguage: [en]\n---\n# Dataset card\n',
});

export const HF_CONFIG = defineFormat({
  id: 'hf_config',
  title: 'Hugging Face config.json / diffusers model_index.json',
  family: 'model',
  syntax: ['json'],
  summary:
    '`architectures`, `model_type`, `auto_map` (remote code), `transformers_version`, `custom_ops_library`; `_name_or_path` of another model as its base; a diffusers `model_index.json` gives its pipeline class',
  names: /^(?:config|model_index)\.json$/i,
  recognise(doc) {
    const j = dataObject(doc);
    if (!j) return 0;
    return isDiffusersIndex(j) || 'auto_map' in j || 'architectures' in j || ('model_type' in j && !('name' in j))
      ? 0.92
      : 0;
  },
  parse: fromData<Obj>(parseHfConfig),
  carries: ['artifacts'],
  corpus: { name: 'hf_config', subformats: ['diffusers_model_index'], example: 'c043' },
});

export const WEIGHT_INDEX = defineFormat({
  id: 'weight_index',
  title: 'Weight index (`*.index.json`)',
  family: 'model',
  syntax: ['json'],
  summary: 'the shard files of `weight_map`, each once',
  names: /\.index\.json$/i,
  recognise: (doc) => (isObj(dataObject(doc)?.weight_map) ? 0.95 : 0),
  parse: fromData<Obj>(parseWeightIndex),
  carries: ['artifacts'],
  corpus: { name: 'weights_index', example: 'c102' },
});

/** A repository file listing line: a path with a known model, data or code extension. */
const FILE_NAME_LINE =
  /^[\w./@+-]+\.(?:bin|pt|pth|pkl|pickle|ckpt|joblib|dill|safetensors|gguf|ggml|onnx|h5|keras|pb|npy|npz|json|md|txt|py|model|tflite|mlmodel|msgpack|so|dll|dylib|zip|tar|gz)$/i;
const PATH_LINE = /^[\w./@+-]+$/;
const WEIGHT_FILE =
  /\.(?:bin|pt|pth|pkl|pickle|ckpt|joblib|dill|safetensors|gguf|ggml|onnx|h5|keras|tflite|mlmodel|msgpack)$/i;
/** any file name with an extension (a weaker listing: below a requirements file of dotted names) */
const ANY_FILE_LINE = /^[\w./@+-]+\.[A-Za-z0-9]{1,12}$/;

/**
 * The array of file entries an object holds (`files`, `siblings`, `model_files`…): at least 80 % of its entries name a
 * file (strings, or objects with a path, `rfilename`, name or filename) and one of them is model weights. The longest
 * such array when there are several.
 */
function fileArrayOf(j: Obj): unknown[] | null {
  let best: unknown[] | null = null;
  let bestFiles = 0;
  for (const v of Object.values(j)) {
    if (!Array.isArray(v) || v.length === 0) continue;
    const files = filesFrom(v);
    if (files.length >= 0.8 * v.length && files.length > bestFiles && files.some((f) => WEIGHT_FILE.test(f.path))) {
      best = v;
      bestFiles = files.length;
    }
  }
  return best;
}

export const FILE_LISTING = defineFormat({
  id: 'file_listing',
  title: 'Repository file listing',
  family: 'model',
  syntax: ['json', 'lines'],
  summary:
    "a JSON array of paths (strings, `{path}` or the Hub's `{rfilename}` siblings), an object holding one (`siblings`, `files`, `model_files` with a weight file among them), or one path a line; a listing with a weight file may also hold extension-less entries; pickle `.bin/.pt/.pth/.pkl/.pickle/.ckpt/.joblib/.dill`, `.safetensors`, `.gguf`, `.onnx`, `.h5/.keras` are told apart",
  names: null,
  recognise(doc) {
    const j = doc.json();
    if (j) {
      if (isPathList(j.value)) return 0.95;
      // an object around the listing (a Hub API answer, a file inventory): below every config and manifest shape
      return isObj(j.value) && fileArrayOf(j.value) ? 0.7 : 0;
    }
    if (doc.structured) return 0;
    // one pass, no copies: every line a file name (0.95), at least 3 paths with a weight file (0.95), every line a
    // name with an extension (0.85), or most of it paths with a weight file (0.8, the other lines left out)
    let total = 0;
    let fileNames = 0;
    let anyFiles = 0;
    let paths = 0;
    let weights = false;
    for (const raw of doc.lines()) {
      const l = raw.trim();
      if (!l || l.startsWith('#')) continue;
      total++;
      if (!PATH_LINE.test(l)) continue;
      paths++;
      if (FILE_NAME_LINE.test(l)) fileNames++;
      if (ANY_FILE_LINE.test(l)) anyFiles++;
      weights ||= WEIGHT_FILE.test(l);
    }
    if (total === 0) return 0;
    if (fileNames === total || (total >= 3 && paths === total && weights)) return 0.95;
    if (anyFiles === total) return 0.85;
    return total >= 3 && paths >= 0.8 * total && weights ? 0.8 : 0;
  },
  parse(p, doc) {
    const j = doc.json();
    if (j) {
      p.format = 'json';
      p.raw_json = j.value;
      const list = Array.isArray(j.value) ? j.value : isObj(j.value) ? fileArrayOf(j.value) : null;
      if (list) parsePathList(p, list);
      return;
    }
    append(
      p.files,
      doc
        .content()
        .filter((l) => PATH_LINE.test(l.text))
        .map((l) => ({ path: l.text })),
    );
  },
  carries: ['artifacts'],
  corpus: { name: 'file_listing', example: 'c085' },
});

export const KERAS_CONFIG = defineFormat({
  id: 'keras_config',
  title: 'Keras model config',
  family: 'model',
  syntax: ['json'],
  summary: 'the layer graph (`class_name`, `config`): Lambda layers and custom objects that run code on load',
  names: /^config\.json$/i,
  recognise: (doc) => {
    const j = dataObject(doc);
    return j && typeof j.class_name === 'string' && 'config' in j ? 0.9 : 0;
  },
  parse: fromData<Obj>(parseKerasConfig),
  carries: ['artifacts'],
  example:
    '{"class_name": "Functional", "config": {"layers": [{"class_name": "Lambda", "config": {"function": "…"}}]}}',
});

export const TOKENIZER_CONFIG = defineFormat({
  id: 'tokenizer_config',
  title: 'Tokenizer config',
  family: 'model',
  syntax: ['json'],
  summary: 'the chat template (a string, or named templates), checked for template injection',
  names: /^tokenizer_config\.json$/i,
  recognise: (doc) => {
    const j = dataObject(doc);
    return j && (typeof j.chat_template === 'string' || Array.isArray(j.chat_template)) ? 0.89 : 0;
  },
  parse: fromData<Obj>(parseTokenizerConfig),
  carries: [],
  example:
    '{"tokenizer_class": "LlamaTokenizer", "chat_template": "{% for m in messages %}{{ m.content }}{% endfor %}"}',
});

export const ONNX_GENAI_CONFIG = defineFormat({
  id: 'onnx_genai_config',
  title: 'onnxruntime-genai config',
  family: 'model',
  syntax: ['json'],
  summary: 'the custom operator library the runtime loads (native code)',
  names: /^genai_config\.json$/i,
  recognise: (doc) => {
    const j = dataObject(doc);
    const m = j && isObj(j.model) ? j.model : null;
    return j && m && (isObj(m.decoder) || 'custom_ops_library' in m || 'custom_ops_library' in j) ? 0.88 : 0;
  },
  parse: fromData<Obj>(parseOnnxGenaiConfig),
  carries: ['artifacts'],
  example: '{"model": {"type": "phi3", "decoder": {"session_options": {}}, "custom_ops_library": "libcustom_ops.so"}}',
});

/** A first line that opens a Modelfile: `FROM x` alone, or any directive when a `FROM x` line follows. */
function modelfileOf(doc: ManifestDocument): Modelfile | null {
  return doc.view('modelfile', () => {
    const first = doc.firstLine();
    const opens =
      /^(?:FROM|from)\s+\S+$/.test(first) ||
      (/^[A-Z]+\s/.test(first) && modelfileDirective(first) !== null && /^FROM\s+\S+\s*$/m.test(doc.raw));
    return opens ? readModelfile(doc.lines()) : null;
  });
}

export const MODELFILE = defineFormat({
  id: 'modelfile',
  title: 'Ollama Modelfile',
  family: 'model',
  syntax: ['lines'],
  summary:
    '`FROM` (a base model, or a local weights file), `ADAPTER`, `SYSTEM`, `TEMPLATE`, `PARAMETER` and `LICENSE` (an identifier or the text)',
  names: /^modelfile(?:\.[\w-]+)?$/i,
  recognise: (doc) => (modelfileOf(doc) ? 0.85 : 0),
  parse(p, doc) {
    const mf = modelfileOf(doc);
    if (mf) parseModelfile(p, mf);
  },
  carries: ['artifacts', 'lineage'],
  ecosystem: 'ollama',
  corpus: { name: 'modelfile', example: 'c028' },
  notes:
    'A `LICENSE` is read when present; its absence is not reported (few Modelfiles have one). A Dockerfile also starts with `FROM`: it is told apart by an instruction a Modelfile does not have (RUN, COPY, CMD…).',
});
