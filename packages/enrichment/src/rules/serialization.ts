// Rules on how a model is loaded: pickle weights and imports, Keras Lambda layers, remote code, template escapes and
// native code (docs/enrichment.md "Rule catalogue", R01–R07).
import { isObj, truncate, uniq } from '../util';
import { verdictByPath } from './artifacts';
import { defineRule, type Emission, type RuleContext } from './define';
import { launches, trustsRemoteCode } from './signals/launch';
import { isVerifiedPublisher } from './signals/publisher';

const PICKLE_EXT = /\.(bin|pt|pth|pkl|pickle|ckpt|joblib|dill)$/i;
const SAFE_EXT = /\.(safetensors|gguf|onnx)$/i;
const NATIVE_EXT = /\.(so|dll|dylib)$/i;
const PY_EXT = /\.py$/i;
const PICKLE_CRIT =
  /^(os|posix|nt|subprocess|sys|socket|runpy|pty|pickle|shutil)(\.|$)|^(builtins|__builtin__)\.(eval|exec|compile|getattr|apply|open|breakpoint|__import__|execfile)$|^operator\.attrgetter$/;
const PICKLE_HIGH =
  /^(webbrowser|httplib|http\.client|requests\.api|requests|aiohttp\.client|urllib|urllib2|smtplib|ftplib)(\.|$)/;
const JINJA_BAD = /__class__|__subclasses__|__globals__|__builtins__|__import__|__mro__|__base__|popen|os\.system/;
/** Pipeline classes diffusers ships (its pipelines/ families; DiffusionPipeline is the generic loader). */
const DIFFUSERS_PIPELINE =
  /^(?:StableDiffusion|Flux|Kandinsky|PixArt|IF|AudioLDM|StableVideoDiffusion|AnimateDiff|DDPM|DDIM|LDM|StableCascade|Wuerstchen|ControlNet|CogVideoX|CogView|HunyuanDiT|Hunyuan|Sana|LTX|Wan|Mochi|AuraFlow|Kolors|StableUnCLIP|UnCLIP|VersatileDiffusion|ShapE|MusicLDM|ConsistencyModel|DiT|Lumina|QwenImage|HiDream|Chroma|Amused|BlipDiffusion|PaintByExample|SemanticStableDiffusion|TextToVideoSD|VideoToVideoSD|I2VGenXL|AltDiffusion|ScoreSdeVe|PNDM|KarrasVe|DanceDiffusion|RePaint|LatentConsistencyModel|LatentDiffusion|Diffusion|StableAudio|Allegro|Latte|Marigold|UniDiffuser|Kandinsky3|Shap|Bria|Cosmos|SkyReels|EasyAnimate|Consis|OmniGen|VisualCloze|Ledits|StableDiffusionXL)\w*Pipeline$/;
const TRUST_REMOTE = /trust_remote_code\s*=\s*True/;
/** Prose saying remote code is needed ("trust_remote_code is required", "you need trust_remote_code"); bounded gaps. */
const TRUST_REMOTE_PROSE =
  /trust_remote_code`?[ \t]{1,3}(?:is|was)[ \t]{1,3}(?:required|needed|necessary)|(?:requires?|needs?|must[ \t]{1,3}(?:set|pass|use|enable))[ \t]{1,3}`?trust_remote_code/i;
const TRAINING_STATE = /(^|\/)(training_args|optimizer|scheduler|rng_state)[^/]*$/;
const PATH_TRAVERSAL = /(^|[\\/])\.\.([\\/]|$)/;

/**
 * An OpenVINO IR: `model.bin` next to `model.xml` holds raw tensors that the runtime maps, not a pickle, so it is one
 * of the non-executable formats (docs/enrichment.md "Calibration changes").
 */
function openVinoWeights(paths: readonly string[]): Set<string> {
  const xml = new Set(paths.filter((f) => /\.xml$/i.test(f)).map((f) => f.slice(0, -4).toLowerCase()));
  return new Set(paths.filter((f) => /\.bin$/i.test(f) && xml.has(f.slice(0, -4).toLowerCase())));
}

/** The manifest's weight files split into pickle-based and non-executable ones (shared with R00). */
export function weightFiles(ctx: RuleContext): { paths: string[]; pickles: string[]; safe: string[] } {
  const paths = uniq(ctx.p.files.map((f) => f.path));
  const ir = openVinoWeights(paths);
  return {
    paths,
    pickles: paths.filter((f) => PICKLE_EXT.test(f) && !TRAINING_STATE.test(f) && !ir.has(f)),
    safe: paths.filter((f) => SAFE_EXT.test(f) || ir.has(f)),
  };
}

/**
 * Python a model loader imports: the module families `auto_map` and custom pipelines name (modeling_, configuration_,
 * tokenization_, processing_…, *pipeline*.py), and any module at the root of a Hub-style repository (one with a root
 * config.json), where auto_map may name it. An application's own scripts (app.py, train.py) in a repository without
 * that layout are code the user runs knowingly, not code a loader runs on the model's behalf.
 */
const MODEL_CODE =
  /^(?:modell?ing|configuration|tokeni[sz]ation|(?:image_|video_)?processing|(?:image_)?preprocessing|feature_extraction)[\w-]*\.py$/i;

/** A training script by its file name: train.py, train_model.py, training.py, fit-model.ipynb. Anchored, linear. */
const TRAINING_SCRIPT = /^(?:train(?:ing)?|fit)(?:[_-][\w-]{0,40})?\.(?:py|ipynb)$/i;
function isTrainingScript(path: string): boolean {
  return TRAINING_SCRIPT.test(path.slice(path.lastIndexOf('/') + 1));
}

/** Whether a path names a module a loader imports (judged on its file name, so the patterns stay anchored). */
function isModelCode(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return MODEL_CODE.test(name) || (PY_EXT.test(name) && name.toLowerCase().includes('pipeline'));
}

/** A Hugging Face model repository's layout: a config.json at its root, which from_pretrained reads. */
function hubLayout(paths: readonly string[]): boolean {
  return paths.some((f) => /^config\.json$/i.test(f));
}

function loaderPython(paths: readonly string[]): string[] {
  const hub = hubLayout(paths);
  return paths.filter((f) => PY_EXT.test(f) && (isModelCode(f) || (hub && !f.includes('/'))));
}

/** Words a file or class name uses to announce an attack payload rather than a model part. */
const PAYLOAD_WORDS = new Set([
  'pwn',
  'pwned',
  'exploit',
  'exfil',
  'exfiltrate',
  'exfiltration',
  'payload',
  'backdoor',
  'backdoored',
  'malicious',
  'evil',
  'trojan',
  'revshell',
  'rce',
]);

/**
 * Whether a file or class name announces a payload (`evil.ckpt`, `dns_pwn.py`, `PwnPipeline`): its words, split at
 * separators and lower-to-upper case changes, include one of PAYLOAD_WORDS. A model part is named for what it is; an
 * executable artefact named for an attack is one, so loading it is critical, not merely unsafe.
 */
function announcesPayload(name: string): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1).slice(0, 200);
  const words = base
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => PAYLOAD_WORDS.has(w));
}

/** A call that unpickles what it reads (torch.load without weights_only=True, pickle/joblib/dill loads). */
const UNPICKLING_CALL =
  /\b(?:torch\.load|c?[Pp]ickle\.loads?|joblib\.load|dill\.loads?|cloudpickle\.loads?|(?:pd|pandas)\.read_pickle)\s{0,3}\(/;
const WEIGHTS_ONLY = /weights_only\s{0,3}=\s{0,3}True/;
/** A command or call that fetches a file from the network. */
const DOWNLOADER = /\b(?:wget|curl|aria2c|gdown|urlretrieve|hf_hub_download|load_file_from_url|download_url)\b/;

/**
 * What a notebook's code does with pickles: the pickle-format files it downloads (a URL or output name with a pickle
 * extension on a download line) and the calls that unpickle a file. One pass over the capped cell text.
 */
function notebookPickles(code: string): { downloads: string[]; loads: string[] } {
  const downloads: string[] = [];
  const loads: string[] = [];
  for (const line of code.split('\n').slice(0, 5000)) {
    if (UNPICKLING_CALL.test(line) && !WEIGHTS_ONLY.test(line)) loads.push(truncate(line.trim(), 120));
    if (!DOWNLOADER.test(line)) continue;
    for (const token of line.split(/[\s"'(),]+/)) {
      const name = token.slice(token.lastIndexOf('/') + 1);
      if (PICKLE_EXT.test(name) && !TRAINING_STATE.test(name)) downloads.push(name);
    }
  }
  return { downloads: uniq(downloads), loads: uniq(loads) };
}

export const R01 = defineRule({
  id: 'R01',
  title: 'Pickle-based weight files without a safetensors alternative',
  severity: 'high',
  weight: 35,
  category: 'unsafe_serialization',
  rationale:
    'Loading .bin/.pt/.pth/.ckpt/.pkl/.pickle/.joblib/.dill runs the pickle VM, which can execute arbitrary code.',
  remediation:
    'Prefer a safetensors/GGUF/ONNX copy; scan pickles (ModelScan/picklescan) and load with weights_only=True.',
  attack_techniques: ['AML.T0011.000', 'AML.T0010.003'],
  references: ['§3 R01'],
  evaluate(ctx) {
    if (ctx.p.kind === 'notebook' && ctx.p.notebook_code) return notebookPickleFindings(ctx.p.notebook_code);
    const { safe } = weightFiles(ctx);
    // a pickle whose bytes the platform scanned benign is judged by pickle_scanned_benign instead (docs/artifacts.md
    // "Judgement"); one without a platform verdict stays here, whatever the client says about it
    const verdicts = verdictByPath(ctx);
    const pickles = weightFiles(ctx).pickles.filter((f) => verdicts.get(f) !== 'benign');
    if (pickles.length === 0) return [];
    const announced = pickles.filter(announcesPayload);
    if (announced.length)
      return [
        {
          severity: 'critical',
          title: 'Pickle files named as attack payloads',
          description: `${announced.length} pickle-based file(s) are named as payloads (${announced.slice(0, 3).join(', ')}); loading one runs it.`,
          evidence: {
            path: ctx.p.kind === 'weight_index' ? 'weight_map' : 'files',
            files: announced.slice(0, 20),
            count: pickles.length,
          },
          capabilities: ['code_execution_on_load'],
        },
      ];
    // pickles shipped next to a safetensors/GGUF/ONNX copy: loaders that prefer the pickle (an older library, an
    // explicit filename, `use_safetensors=False`) still execute it, so it stays a finding, at low severity
    if (safe.length > 0)
      return [
        {
          severity: 'low',
          title: 'Pickle-based weight files next to a safe copy',
          description: `${pickles.length} pickle-based weight file(s) are shipped next to ${safe.length} safetensors/GGUF/ONNX file(s); a loader that picks the pickle runs it.`,
          evidence: {
            path: ctx.p.kind === 'weight_index' ? 'weight_map' : 'files',
            files: pickles.slice(0, 20),
            count: pickles.length,
            safe_alternatives: safe.slice(0, 5),
          },
          capabilities: ['code_execution_on_load'],
        },
      ];
    // a repository listing holding the script that trains its pickles (train_model.py next to model.pkl): they are
    // the project's own build output, loaded by its own code, as a notebook unpickling its own files is; low, trusted
    // only as far as the repository is (docs/enrichment.md "Calibration changes")
    const trainer = ctx.p.kind === 'file_listing' ? weightFiles(ctx).paths.find(isTrainingScript) : undefined;
    if (trainer)
      return [
        {
          severity: 'low',
          title: 'Pickle files the repository trains itself',
          description: `${pickles.length} pickle-based file(s) next to the script that produces them (${truncate(trainer, 80)}); loading one from another source would run it.`,
          evidence: { path: 'files', files: pickles.slice(0, 20), count: pickles.length, trained_by: trainer },
          capabilities: ['code_execution_on_load'],
        },
      ];
    return [
      {
        description: `${pickles.length} pickle-based weight file(s) and no safetensors/GGUF/ONNX alternative.`,
        evidence: {
          path: ctx.p.kind === 'weight_index' ? 'weight_map' : 'files',
          files: pickles.slice(0, 20),
          count: pickles.length,
        },
        capabilities: ['code_execution_on_load'],
      },
    ];
  },
});

/**
 * A notebook that fetches pickle-format weights (checkpoints, VAEs, embeddings) runs whatever they hold when its tools
 * load them: medium. One that only unpickles its own files (torch.load of a local checkpoint) is low — safe only as far
 * as those files are trusted (docs/enrichment.md "Calibration changes").
 */
function notebookPickleFindings(code: string): Emission[] {
  const { downloads, loads } = notebookPickles(code);
  if (!downloads.length && !loads.length) return [];
  return [
    {
      severity: downloads.length ? 'medium' : 'low',
      title: downloads.length ? 'Notebook downloads pickle-format weights' : 'Notebook unpickles files',
      description: downloads.length
        ? `The notebook downloads ${downloads.length} pickle-format file(s) (${downloads.slice(0, 3).join(', ')}); loading them runs the pickle VM.`
        : `The notebook unpickles files (${truncate(loads[0] ?? '', 60)}) without weights_only=True.`,
      evidence: { path: 'cells', downloads: downloads.slice(0, 20), loads: loads.slice(0, 5) },
      capabilities: ['code_execution_on_load'],
    },
  ];
}

export const R02 = defineRule({
  id: 'R02',
  title: 'Pickle imports dangerous callables (critical list)',
  severity: 'critical',
  weight: 60,
  category: 'unsafe_serialization',
  rationale:
    'GLOBAL/STACK_GLOBAL opcodes import os/subprocess/builtins.eval etc. (ModelScan CRITICAL list): code runs at load.',
  remediation: 'Do not load the file; report it to the hub; use a safetensors export.',
  attack_techniques: ['AML.T0018.002', 'AML.T0011.000'],
  references: ['§3 R02 (+ `shutil`, `execfile`)'],
  evaluate({ p }) {
    const crit = p.pickle_imports.filter((x) => PICKLE_CRIT.test(x));
    if (!crit.length) return [];
    return [
      {
        description: `Pickle imports ${crit.slice(0, 5).join(', ')}.`,
        evidence: { path: 'metadata.pickle_imports', imports: crit.slice(0, 20) },
        capabilities: ['code_execution_on_load'],
      },
    ];
  },
});

export const R03 = defineRule({
  id: 'R03',
  title: 'Pickle imports network-capable modules',
  severity: 'high',
  weight: 35,
  category: 'unsafe_serialization',
  rationale:
    'webbrowser/httplib/requests/aiohttp imports in a pickle (ModelScan HIGH list) suggest exfiltration at load.',
  remediation: 'Do not load the file; inspect the pickle opcodes in a sandbox.',
  attack_techniques: ['AML.T0025', 'AML.T0086', 'AML.T0011.000'],
  references: ['§3 R03 (AML.T0025 Exfiltration via Cyber Means, from the full ATLAS release)'],
  evaluate({ p }) {
    const high = p.pickle_imports.filter((x) => PICKLE_HIGH.test(x) && !PICKLE_CRIT.test(x));
    if (!high.length) return [];
    return [
      {
        description: `Pickle imports network modules ${high.slice(0, 5).join(', ')}.`,
        evidence: { path: 'metadata.pickle_imports', imports: high.slice(0, 20) },
        capabilities: ['code_execution_on_load', 'network_egress'],
      },
    ];
  },
});

export const R04 = defineRule({
  id: 'R04',
  title: 'Keras Lambda layer or non-Keras module in model config',
  severity: 'high',
  weight: 35,
  category: 'unsafe_serialization',
  rationale: 'Lambda layers carry marshalled Python executed on load (CVE-2024-3660, CVE-2025-1550).',
  remediation:
    'Load with safe_mode=True on a fixed Keras version; replace Lambda layers with registered custom layers.',
  attack_techniques: ['AML.T0011.000', 'AML.T0018.002'],
  references: ['§3 R04 (ATLAS ids added)'],
  evaluate({ p }) {
    if (p.keras_config === null || p.keras_config === undefined) return [];
    const hits: string[] = [];
    const walk = (v: unknown, depth: number): void => {
      if (depth > 12 || hits.length > 10) return;
      if (Array.isArray(v)) {
        for (const x of v) walk(x, depth + 1);
        return;
      }
      if (!isObj(v)) return;
      if (v.class_name === 'Lambda') hits.push('Lambda');
      if (typeof v.module === 'string' && !/^keras(\.|$)/.test(v.module) && !/^tensorflow\.keras/.test(v.module))
        hits.push(`module:${v.module}`);
      for (const k of Object.keys(v)) walk(v[k], depth + 1);
    };
    walk(p.keras_config, 0);
    if (!hits.length) return [];
    return [
      {
        description: `Keras config contains ${uniq(hits).join(', ')}.`,
        evidence: { path: 'keras_config', hits: uniq(hits) },
        capabilities: ['code_execution_on_load'],
      },
    ];
  },
});

/** Model names of architectures transformers implements itself (no auto_map needed): Llama 2/3, Mistral, Gemma… */
const NATIVE_ARCHITECTURE =
  /^(?:llama-?[23]|meta-llama-3|mistral|mixtral|gemma|qwen[23]|qwen2\.5|falcon|gpt2|bert|roberta|flan-t5|t5-|bart|opt-|bloom|whisper)/i;
const FROM_PRETRAINED = /\.from_pretrained\(/g;
const QUOTED_ID = /^["']([\w.-]{1,96})\/([\w.-]{1,96})["']$/;

/**
 * The models a notebook loads with trust_remote_code=True when every such load is a verified vendor's model of a
 * natively implemented architecture; null when any load is not (or cannot be resolved). The first argument of the
 * `from_pretrained(` call is read, as a string literal or as a variable assigned one.
 */
function nativeTrustedModels(code: string): string[] | null {
  const models: string[] = [];
  for (const m of code.matchAll(FROM_PRETRAINED)) {
    const start = (m.index ?? 0) + m[0].length;
    const call = code.slice(start, start + 600);
    const close = call.indexOf(')');
    const args = close >= 0 ? call.slice(0, close) : call;
    if (!TRUST_REMOTE.test(args)) continue;
    const first = (args.split(',', 1)[0] ?? '').trim();
    let literal = first;
    if (/^[A-Za-z_]\w{0,60}$/.test(first)) {
      // the variable's last assignment before the call
      const before = code.slice(0, m.index ?? 0).split('\n');
      const line = before
        .reverse()
        .find((l) => l.trimStart().startsWith(`${first} =`) || l.trimStart().startsWith(`${first}=`));
      literal = line ? line.slice(line.indexOf('=') + 1).trim() : '';
    }
    const id = QUOTED_ID.exec(literal);
    if (!id || !isVerifiedPublisher(id[1]!) || !NATIVE_ARCHITECTURE.test(id[2]!)) return null;
    models.push(`${id[1]}/${id[2]}`);
  }
  // every trust_remote_code=True in the notebook must be one of these loads (a pipeline(…) elsewhere is not judged)
  const flags = code.split('trust_remote_code').length - 1;
  return models.length && models.length === flags ? uniq(models) : null;
}

export const R05 = defineRule({
  id: 'R05',
  title: 'Remote code required to load the model',
  severity: 'high',
  weight: 35,
  category: 'remote_code',
  rationale:
    'auto_map / trust_remote_code=True / shipped *.py make transformers import repository Python at load time.',
  remediation: 'Review the repository Python, pin a revision (commit sha), or use a native architecture.',
  attack_techniques: ['AML.T0011.000', 'AML.T0010.003'],
  references: ['§3 R05'],
  evaluate(ctx) {
    const { p } = ctx;
    const { paths } = weightFiles(ctx);
    const remote: Record<string, unknown> = {};
    if (p.config?.auto_map) remote.auto_map = p.config.auto_map;
    const pyFiles = loaderPython(paths);
    if (pyFiles.length && (ctx.input.asset_type === 'model' || p.kind === 'weight_index'))
      remote.python_files = pyFiles.slice(0, 20);
    // a diffusers model_index.json naming a pipeline class diffusers does not ship: from_pretrained can only load it
    // as repository code (custom_pipeline / trust_remote_code)
    const [pipeline = '', ...components] = p.config?.model_type === 'diffusers' ? p.config.architectures : [];
    if (pipeline && !DIFFUSERS_PIPELINE.test(pipeline)) remote.custom_pipeline = pipeline.slice(0, 120);
    // components a diffusers index takes from a repository module (module-qualified by the parser) are imported too
    if (components.length) remote.custom_components = components.slice(0, 10).map((c) => c.slice(0, 120));
    const announced = [...pyFiles, pipeline, ...components].filter((n) => n && announcesPayload(n));
    // model code in a project repository (no root config.json, so no from_pretrained of the repository itself): the
    // user runs it knowingly as the project's code, not a Hub loader on the model's behalf; medium, as reviewers rate it
    const projectCode =
      !announced.length && Object.keys(remote).length === 1 && p.kind === 'file_listing' && !hubLayout(paths);
    if (projectCode)
      return [
        {
          severity: 'medium',
          title: 'Repository ships custom model code',
          description: `The repository carries model code (${pyFiles.slice(0, 3).join(', ')}) outside a Hub model layout: using its model means running that code.`,
          evidence: { path: 'files', ...remote },
          capabilities: ['remote_code'],
        },
      ];
    if (Object.keys(remote).length)
      return [
        {
          ...(announced.length
            ? { severity: 'critical' as const, title: 'Remote code named as an attack payload' }
            : {}),
          description: announced.length
            ? `Loading runs repository code named as a payload (${announced.slice(0, 3).join(', ')}).`
            : 'Loading requires trust_remote_code: repository Python runs on load.',
          evidence: { path: remote.auto_map ? 'auto_map' : 'files', ...remote },
          capabilities: ['remote_code'],
        },
      ];
    // a launch command that loads a model with --trust-remote-code (vLLM, TGI, lm-eval, notebooks) runs the model
    // repository's Python on that host, whatever the model (docs/enrichment.md "Launch semantics")
    const launch = launches(p).find(trustsRemoteCode);
    if (launch)
      return [
        {
          description: 'The launch command loads the model with trust_remote_code: repository Python runs on the host.',
          // the flag only, never the command line: a launch's other arguments may hold secrets (docs/security.md)
          evidence: { path: launch.path, flag: 'trust_remote_code' },
          capabilities: ['remote_code'],
        },
      ];
    if (!ctx.raw || !(TRUST_REMOTE.test(ctx.raw) || TRUST_REMOTE_PROSE.test(ctx.raw))) return [];
    // a notebook passing the flag only when loading a vendor's model of an architecture transformers implements
    // (meta-llama/Llama-3.2-1B-Instruct): no repository code runs today; a later revision that adds an auto_map would
    // run without another review, so it stays a finding, one band lower
    const native = p.kind === 'notebook' && p.notebook_code ? nativeTrustedModels(p.notebook_code) : null;
    if (native)
      return [
        {
          severity: 'medium',
          title: 'trust_remote_code on a natively supported model',
          description: `Loads ${native.slice(0, 3).join(', ')} with trust_remote_code=True: transformers implements the architecture, so no repository code runs now, but any the repository adds later would.`,
          evidence: { path: 'cells', models: native.slice(0, 10), flag: 'trust_remote_code' },
          capabilities: ['remote_code'],
        },
      ];
    const prose = TRUST_REMOTE.test(ctx.raw) ? null : TRUST_REMOTE_PROSE.exec(ctx.raw);
    return [
      {
        // the card's own loading code passes trust_remote_code=True: the model does not load without running its
        // repository's Python — as certain as an auto_map; prose that merely mentions the flag stays at 0.6
        confidence: prose ? 0.6 : 1,
        description: prose
          ? `The card states that loading needs trust_remote_code ("${truncate(prose[0], 60)}").`
          : 'Usage instructions load the model with trust_remote_code=True.',
        evidence: { path: 'body', match: prose ? truncate(prose[0], 120) : 'trust_remote_code=True' },
        capabilities: ['remote_code'],
      },
    ];
  },
});

export const R06 = defineRule({
  id: 'R06',
  title: 'Chat template with Jinja sandbox-escape primitives',
  severity: 'critical',
  weight: 60,
  category: 'template_injection',
  rationale: 'GGUF tokenizer.chat_template with __class__/__globals__/popen reproduces CVE-2024-34359.',
  remediation: 'Render templates only in a sandboxed Jinja environment; update llama-cpp-python ≥0.2.72.',
  attack_techniques: ['AML.T0011.000', 'AML.T0018.002'],
  references: ['§3 R06 (ATLAS ids added)'],
  evaluate({ p }) {
    if (!p.chat_template || !JINJA_BAD.test(p.chat_template)) return [];
    const m = JINJA_BAD.exec(p.chat_template);
    return [
      {
        description: 'Chat template references Python internals usable for a Jinja sandbox escape.',
        evidence: { path: 'chat_template', match: m ? m[0] : null },
        capabilities: ['code_execution_on_load'],
        cve_ids: [],
      },
    ];
  },
});

export const R07 = defineRule({
  id: 'R07',
  title: 'Model runtime loads native code or escapes its directory',
  severity: 'high',
  weight: 35,
  category: 'unsafe_serialization',
  rationale:
    'custom_ops_library / .so/.dll files or external_data paths with .. (CVE-2022-25882 class) load native code or read outside the model dir.',
  remediation:
    'Remove custom ops or build them from reviewed source; reject external data paths outside the model directory.',
  attack_techniques: ['AML.T0011.000', 'AML.T0010.003'],
  references: ['§3 R07 (+ AML.T0010.003)'],
  evaluate(ctx) {
    const { p } = ctx;
    const { paths } = weightFiles(ctx);
    const native = paths.filter((f) => NATIVE_EXT.test(f));
    const traversal = paths.filter((f) => PATH_TRAVERSAL.test(f));
    if (!p.custom_ops.length && !native.length && !traversal.length) return [];
    const e: Emission = {
      description: 'Model runtime loads native code or references paths outside the model directory.',
      evidence: {
        path: p.custom_ops.length ? 'custom_ops_library' : 'files',
        custom_ops: p.custom_ops,
        native_files: native.slice(0, 10),
        traversal: traversal.slice(0, 10),
      },
      capabilities: ['native_code'],
    };
    return [e];
  },
});
