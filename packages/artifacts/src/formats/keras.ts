// Keras model configs (docs/artifacts.md "Keras"): the `config.json` of a Keras v3 `.keras` zip and the
// `model_config` attribute of a legacy HDF5 file. Lambda layers carry marshalled bytecode or code text that
// load_model runs (CVE-2024-3660 class): malicious. Objects whose `module` lies outside the Keras namespaces are
// imported when the model is rebuilt (CVE-2025-1550 class): suspicious, malicious when the module runs commands or
// code. HDF5 is not parsed as a whole: the file is streamed once and every JSON document stored in it (attributes
// live uncompressed in object headers or the global heap) is extracted and judged like config.json.
import builtins from '../../data/keras-builtins.json';
import namespaces from '../../data/keras-namespaces.json';
import type { RandomAccess } from '../random-access';
import type { ArtifactFinding, FormatAnalysis } from '../types';
import { excerpt, utf8Lenient } from './byte-cursor';

const ALLOWED_PREFIXES = namespaces.allowed_module_prefixes;
const DANGEROUS_MODULES = new Set(namespaces.dangerous_modules);
const DANGEROUS_CALLABLES = new Set(namespaces.dangerous_callables);
const LAMBDA_LAYERS = new Set(namespaces.lambda_layers);
const OP_LAMBDA_LAYERS = new Set(namespaces.op_lambda_layers);
const RISKY_TF_FUNCTIONS = namespaces.risky_tf_functions;
const BUILTIN_CLASSES = new Set(builtins.classes);
const BUILTIN_LOSSES_AND_METRICS = new Set(builtins.loss_and_metric_names);
/** A config over this size is not parsed (real model configs are well under a few MB). */
const MAX_CONFIG_BYTES = 64 << 20;
const MAX_JSON_NODES = 5_000_000;
const CHUNK_BYTES = 4 << 20;
/** A Keras file holds a handful of JSON attributes; a file with more candidates than this is built to exhaust us. */
const MAX_DOCUMENTS = 10_000;
const HDF5_SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];

type Add = (finding: Omit<ArtifactFinding, 'evidence'>, snippet: unknown) => void;

export function analyseKerasConfig(configJson: Uint8Array, member: string): FormatAnalysis {
  const facts: Record<string, unknown> = {};
  if (configJson.length > MAX_CONFIG_BYTES) {
    return { format: 'keras_v3', findings: [], facts, unscannable: `${member} is over ${MAX_CONFIG_BYTES} bytes` };
  }
  let config: unknown;
  try {
    config = JSON.parse(utf8Lenient.decode(configJson));
  } catch {
    return { format: 'keras_v3', findings: [], facts, invalid: `${member} is not JSON` };
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    return { format: 'keras_v3', findings: [], facts, invalid: `${member} is not a JSON object` };
  }
  const findings: ArtifactFinding[] = [];
  judgeConfig(config, { member, offset: 0 }, { findings, facts });
  return { format: 'keras_v3', findings, facts };
}

/** Walks a parsed config and reports Lambda code and out-of-namespace modules. */
function judgeConfig(
  config: object,
  where: { member: string; offset: number },
  { findings, facts }: { findings: ArtifactFinding[]; facts: Record<string, unknown> },
): void {
  const seen = new Set<string>();
  const add: Add = (finding, snippet) => {
    const key = `${finding.id}:${finding.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push({
      ...finding,
      evidence: { member: where.member, offset: where.offset, excerpt: excerpt(JSON.stringify(snippet) ?? '') },
    });
  };
  judgeTrainingConfig(config as Record<string, unknown>, add);
  const classNames = new Set<string>();
  const customObjects = new Set<string>();
  const stack: unknown[] = [config];
  let visited = 0;
  while (stack.length > 0) {
    if (++visited > MAX_JSON_NODES) {
      add(
        { id: 'keras.config_too_large', severity: 'medium', verdict: 'unscannable', message: 'config walk cap hit' },
        '',
      );
      break;
    }
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      // Item by item: spreading an array of some 150,000 items overflows the call stack.
      for (const item of node) stack.push(item);
      continue;
    }
    const record = node as Record<string, unknown>;
    // Keras 3 keeps the training configuration (losses, metrics) in `compile_config`.
    const compileConfig = record.compile_config;
    if (compileConfig !== null && typeof compileConfig === 'object' && !Array.isArray(compileConfig)) {
      judgeTrainingConfig(compileConfig as Record<string, unknown>, add);
    }
    const className = typeof record.class_name === 'string' ? record.class_name : undefined;
    if (className !== undefined) {
      if (classNames.size < 500) classNames.add(className);
      judgeObject(record, className, add);
      if (typeof record.registered_name === 'string' && record.module === null && customObjects.size < 200) {
        customObjects.add(record.registered_name);
      }
    }
    for (const value of Object.values(record)) if (value !== null && typeof value === 'object') stack.push(value);
  }
  facts.class_names = [...classNames].sort();
  if (customObjects.size > 0) facts.custom_objects = [...customObjects].sort();
}

function judgeObject(record: Record<string, unknown>, className: string, add: Add): void {
  const config = (record.config ?? {}) as Record<string, unknown>;
  if (className === '__lambda__') {
    add(
      {
        id: 'keras.lambda_code',
        severity: 'critical',
        verdict: 'malicious',
        message: 'a serialized Python lambda (marshalled bytecode) runs when the model is loaded',
      },
      record,
    );
  }
  if (LAMBDA_LAYERS.has(className) || record.registered_name === 'Lambda') judgeLambda(config, add);
  if (OP_LAMBDA_LAYERS.has(className) && typeof config.function === 'string') {
    const fn = config.function;
    if (RISKY_TF_FUNCTIONS.some((risky) => fn === risky || fn.startsWith(`${risky}.`))) {
      add(
        {
          id: 'keras.risky_op_lambda',
          severity: 'high',
          verdict: 'suspicious',
          message: `${className} calls tf.${fn}, which reaches files or Python code`,
        },
        record,
      );
    }
  }
  const module = typeof record.module === 'string' ? record.module : undefined;
  const registered = typeof record.registered_name === 'string' ? record.registered_name : undefined;
  // `package>Name` registered names and module paths both name where the object's code comes from.
  const origins = [
    module,
    registered?.includes('>') ? registered.split('>')[0] : undefined,
    className.includes('>') ? className.split('>')[0] : undefined,
  ].filter((o): o is string => o !== undefined && o !== '');
  for (const origin of origins) {
    const root = origin.split('.')[0]!;
    if (DANGEROUS_MODULES.has(root) || DANGEROUS_MODULES.has(origin)) {
      add(
        {
          id: 'keras.dangerous_module',
          severity: 'critical',
          verdict: 'malicious',
          message: `object ${className} is rebuilt from module ${origin}, which runs commands or code`,
        },
        record,
      );
    } else if (origin === module && !ALLOWED_PREFIXES.some((p) => origin === p || origin.startsWith(`${p}.`))) {
      add(
        {
          id: 'keras.module_outside_keras',
          severity: 'medium',
          verdict: 'suspicious',
          message: `object ${className} is imported from module ${origin}, outside the Keras namespaces`,
        },
        record,
      );
    }
  }
  // Without a module or a registered `package>Name`, a class Keras does not ship is code the loading process must
  // supply (a `__main__` class in the saving script): the file names it, a reviewer must see it.
  // (tf.keras writes its own registered optimizers as `Custom>Adam`: the `package>Name` form is a registration.)
  const isRegistration = registered?.includes('>') || className.includes('>');
  if (module === undefined && !isRegistration && !BUILTIN_CLASSES.has(className)) {
    add(
      {
        id: 'keras.custom_class',
        severity: 'medium',
        verdict: 'suspicious',
        message: `class ${className} is not part of Keras; loading runs whatever code defines it`,
      },
      { class_name: className, registered_name: registered },
    );
  }
  if (className === 'MeanMetricWrapper' && typeof config.fn === 'string' && !isKerasLossOrMetric(config.fn)) {
    add(
      {
        id: 'keras.custom_loss_or_metric',
        severity: 'medium',
        verdict: 'suspicious',
        message: `metric function ${config.fn} is not part of Keras`,
      },
      record,
    );
  }
  if (DANGEROUS_CALLABLES.has(className) || (registered !== undefined && DANGEROUS_CALLABLES.has(registered))) {
    add(
      {
        id: 'keras.dangerous_callable_name',
        severity: 'high',
        verdict: 'suspicious',
        message: `object names the callable ${className}`,
      },
      record,
    );
  }
}

/** A legacy `training_config`: loss and metric names outside Keras are functions the loading process supplies. */
function judgeTrainingConfig(root: Record<string, unknown>, add: Add): void {
  const names: string[] = [];
  const stack: unknown[] = ['loss', 'metrics', 'weighted_metrics'].map((key) => root[key]);
  while (stack.length > 0 && names.length < 1000) {
    const value = stack.pop();
    if (typeof value === 'string') names.push(value);
    else if (Array.isArray(value)) for (const item of value) stack.push(item);
    // Objects with a class_name are judged as objects; plain maps go output name → loss.
    else if (value !== null && typeof value === 'object' && !('class_name' in value))
      for (const item of Object.values(value)) stack.push(item);
  }
  for (const name of names) {
    if (isKerasLossOrMetric(name)) continue;
    add(
      {
        id: 'keras.custom_loss_or_metric',
        severity: 'medium',
        verdict: 'suspicious',
        message: `loss or metric ${name} is not part of Keras; loading with compile runs the code that defines it`,
      },
      { loss: root.loss, metrics: root.metrics },
    );
  }
}

/** Keras resolves loss and metric strings by function name or by class name (`metrics=['AUC']`). */
function isKerasLossOrMetric(name: string): boolean {
  return BUILTIN_LOSSES_AND_METRICS.has(name.toLowerCase()) || BUILTIN_CLASSES.has(name);
}

function judgeLambda(config: Record<string, unknown>, add: Add): void {
  const fn = config.function;
  const functionType = config.function_type;
  const code =
    functionType === 'lambda' ||
    Array.isArray(fn) ||
    (typeof fn === 'object' && fn !== null && (fn as Record<string, unknown>).class_name === '__lambda__') ||
    (typeof fn === 'string' && (/\blambda\b|[();]/.test(fn) || /^[A-Za-z0-9+/=\s]{40,}$/.test(fn)));
  if (code) {
    add(
      {
        id: 'keras.lambda_code',
        severity: 'critical',
        verdict: 'malicious',
        message: 'a Lambda layer carries Python code (source or marshalled bytecode) that runs at load',
      },
      { class_name: 'Lambda', config: { function: fn, function_type: functionType } },
    );
    return;
  }
  const module = typeof config.module === 'string' ? config.module : undefined;
  const dangerous = module !== undefined && DANGEROUS_MODULES.has(module.split('.')[0]!);
  add(
    {
      id: dangerous ? 'keras.dangerous_module' : 'keras.lambda_named_function',
      severity: dangerous ? 'critical' : 'medium',
      verdict: dangerous ? 'malicious' : 'suspicious',
      message: `a Lambda layer calls the named function ${String(module ?? '')}${module ? '.' : ''}${String(fn)}`,
    },
    { class_name: 'Lambda', config: { function: fn, module } },
  );
}

/**
 * Legacy Keras HDF5. One pass over the file finds every JSON document: a `{` right after a non-text byte (and any
 * whitespace) that closes as balanced JSON before the next control byte. Runs of text never overlap, so the pass is
 * linear.
 */
export async function analyseKerasH5(file: RandomAccess): Promise<FormatAnalysis> {
  const facts: Record<string, unknown> = {};
  const findings: ArtifactFinding[] = [];
  const done = (extra: Partial<FormatAnalysis> = {}): FormatAnalysis => ({
    format: 'keras_h5',
    findings,
    facts,
    ...extra,
  });
  if (!(await hasHdf5Signature(file))) return done({ invalid: 'no HDF5 signature' });

  const documents: { start: number; end: number }[] = [];
  let sawModelConfig = false;
  let filteredHeap = false;
  let oversized = false;
  let tooManyDocuments = false;
  // JSON-run state, carried across chunks.
  let runStart = -1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  // True right after a non-text byte and through the whitespace after it: a document may start there (Python's
  // json.loads skips leading whitespace, so an attribute value of `  {...}` is still a config).
  let atStart = false;
  const modelConfig = Buffer.from('model_config');
  const fractalHeap = Buffer.from('FRHP');
  for (let chunkStart = 0; chunkStart < file.size; chunkStart += CHUNK_BYTES) {
    // Read a little past the chunk so that markers spanning the boundary are seen.
    const chunk = await file.read(chunkStart, Math.min(CHUNK_BYTES + 16, file.size - chunkStart));
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    if (!sawModelConfig && buffer.indexOf(modelConfig) >= 0) sawModelConfig = true;
    for (let at = buffer.indexOf(fractalHeap); at >= 0; at = buffer.indexOf(fractalHeap, at + 4)) {
      // Fractal heap header: signature, version (1), heap id length (2), I/O filter encoded length (2).
      if (at + 9 <= buffer.length && buffer.readUInt16LE(at + 7) !== 0) filteredHeap = true;
    }
    const limit = Math.min(CHUNK_BYTES, chunk.length);
    for (let i = 0; i < limit; i++) {
      const b = chunk[i]!;
      const isText = b >= 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
      if (runStart < 0) {
        if (b === 0x7b && atStart) {
          runStart = chunkStart + i;
          depth = 1;
          inString = false;
          escaped = false;
        }
      } else if (!isText) {
        runStart = -1;
      } else if (inString) {
        if (escaped) escaped = false;
        else if (b === 0x5c) escaped = true;
        else if (b === 0x22) inString = false;
      } else if (b === 0x22) {
        inString = true;
      } else if (b === 0x7b || b === 0x5b) {
        depth++;
      } else if (b === 0x7d || b === 0x5d) {
        depth--;
        if (depth === 0) {
          if (documents.length < MAX_DOCUMENTS) documents.push({ start: runStart, end: chunkStart + i + 1 });
          else tooManyDocuments = true;
          runStart = -1;
        }
      }
      if (runStart >= 0 && chunkStart + i - runStart > MAX_CONFIG_BYTES) {
        oversized = true;
        runStart = -1;
      }
      atStart = !isText || (atStart && (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d));
    }
  }

  let configs = 0;
  for (const document of documents) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(utf8Lenient.decode(await file.read(document.start, document.end - document.start)));
    } catch {
      continue;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) continue;
    const record = parsed as Record<string, unknown>;
    if (!['class_name', 'config', 'module', 'loss'].some((key) => key in record)) continue;
    configs++;
    const documentFacts: Record<string, unknown> = {};
    judgeConfig(record, { member: 'model_config', offset: document.start }, { findings, facts: documentFacts });
    if (configs === 1) Object.assign(facts, documentFacts);
  }
  facts.model_config = sawModelConfig ? 'present' : 'absent';
  facts.json_documents = configs;
  if (configs === 0 && (sawModelConfig || filteredHeap || oversized)) {
    return done({
      unscannable: filteredHeap
        ? 'attributes are stored in a filtered (compressed) heap'
        : 'the model_config attribute could not be read as JSON',
    });
  }
  if (oversized) return done({ unscannable: `a JSON document is over ${MAX_CONFIG_BYTES} bytes` });
  if (tooManyDocuments) return done({ unscannable: `more than ${MAX_DOCUMENTS} JSON documents` });
  if (filteredHeap) return done({ unscannable: 'attributes are stored in a filtered (compressed) heap' });
  return done();
}

/** HDF5 files start with the signature at 0 or after a user block of 512, 1024, 2048, ... bytes. */
async function hasHdf5Signature(file: RandomAccess): Promise<boolean> {
  for (let offset = 0; offset + 8 <= file.size; offset = offset === 0 ? 512 : offset * 2) {
    const bytes = await file.read(offset, 8);
    if (HDF5_SIGNATURE.every((b, i) => bytes[i] === b)) return true;
  }
  return false;
}
