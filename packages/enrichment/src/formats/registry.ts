// The manifest format registry: every format the engine reads, in tie-break order. The format list, the formats that
// carry a licence, the generic fallbacks, the corpus's format names and the docs' "Manifests recognised" derive from
// it; adding a format = one defineFormat in its family file + one entry here (docs/enrichment.md).
import type { EnrichmentInput, ParsedManifest } from '../types';
import { isObj, str } from '../util';
import { BROWSER_EXTENSION } from './browser';
import { COMPOSE, DOCKERFILE } from './containers';
import type { Carry, Family, FormatDefinition } from './define';
import { ManifestDocument } from './document';
import { JSON_DATA, TEXT, TOML_DATA, YAML_DATA } from './generic';
import { AGENT_CONFIG, MCP_CLIENT_CONFIG, MCP_SERVER_JSON, MCP_TOOLS, MCPB_MANIFEST } from './mcp';
import {
  FILE_LISTING,
  HF_CONFIG,
  HF_DATASET_CARD,
  HF_MODEL_CARD,
  KERAS_CONFIG,
  MODELFILE,
  ONNX_GENAI_CONFIG,
  TOKENIZER_CONFIG,
  WEIGHT_INDEX,
} from './models';
import { NOTEBOOK } from './notebooks';
import { NPM_PACKAGE, PYPROJECT, REQUIREMENTS, SETUP_CFG } from './packages';

/** Every format, grouped by family; on equal confidence the earlier one wins. */
export const FORMATS = [
  HF_MODEL_CARD,
  HF_DATASET_CARD,
  HF_CONFIG,
  WEIGHT_INDEX,
  FILE_LISTING,
  KERAS_CONFIG,
  TOKENIZER_CONFIG,
  ONNX_GENAI_CONFIG,
  MODELFILE,
  MCP_CLIENT_CONFIG,
  AGENT_CONFIG,
  MCP_SERVER_JSON,
  MCPB_MANIFEST,
  MCP_TOOLS,
  NPM_PACKAGE,
  PYPROJECT,
  REQUIREMENTS,
  SETUP_CFG,
  DOCKERFILE,
  COMPOSE,
  BROWSER_EXTENSION,
  NOTEBOOK,
  JSON_DATA,
  YAML_DATA,
  TOML_DATA,
  TEXT,
] as const;

export type FormatId = (typeof FORMATS)[number]['id'];

const BY_ID: ReadonlyMap<string, FormatDefinition> = new Map(FORMATS.map((f) => [f.id, f]));

export function formatById(id: string): FormatDefinition | undefined {
  return BY_ID.get(id);
}

/** Whether manifests of this kind can carry `what` (false for `empty` and unknown kinds). */
export function carries(kind: string, what: Carry): boolean {
  return BY_ID.get(kind)?.carries.includes(what) ?? false;
}

/** Whether the kind is of a family (e.g. `mcp`; `generic` is content no manifest format claimed). */
export function inFamily(kind: string, family: Family): boolean {
  return BY_ID.get(kind)?.family === family;
}

/** The package ecosystem a format implies (src/identify.ts), or null. */
export function formatEcosystem(kind: string): string | null {
  return BY_ID.get(kind)?.ecosystem ?? null;
}

/** The formats the labelled corpus must cover: its format name per registry format, subformats, example entry. */
export const CORPUS_FORMATS = FORMATS.flatMap((f) => {
  const c = 'corpus' in f ? f.corpus : undefined;
  return c ? [{ id: f.id, name: c.name, subformats: c.subformats ?? [], example: c.example }] : [];
});

/** Only a plain base name: at most 200 characters, no blanks or separators. */
const BASE_NAME = /^[^\s/\\]{1,200}$/;

/**
 * The file name the signal gives for its manifest, if any: `metadata.filename` / `file_name` / `path`, else the last
 * segment of `source_url`. A hint only (formats' `names`): content decides.
 */
export function fileNameOf(input: EnrichmentInput): string | null {
  const md = isObj(input.metadata) ? input.metadata : {};
  const given = str(md.filename) ?? str(md.file_name) ?? str(md.path) ?? null;
  let path = given;
  if (!path && input.source_url) {
    const q = input.source_url.search(/[?#]/);
    path = q < 0 ? input.source_url : input.source_url.slice(0, q);
  }
  if (!path) return null;
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return BASE_NAME.test(base) ? base : null;
}

/** What a recogniser gains when the file name is one of its format's (content must have recognised something). */
const NAME_BONUS = 0.05;

export interface Recognition {
  format: FormatDefinition;
  confidence: number;
  runner_up: { format: FormatDefinition; confidence: number } | null;
}

/** Every recogniser's confidence for the document, the best first (registry order on ties). Never throws. */
export function recognise(doc: ManifestDocument, input: EnrichmentInput): Recognition {
  const scored = FORMATS.map((format, order) => {
    const named = !!(doc.fileName && format.names?.test(doc.fileName));
    let confidence: number;
    try {
      confidence = format.recognise(doc, { input, named });
    } catch {
      confidence = 0; // a recogniser that fails claims nothing
    }
    if (named && confidence > 0) confidence = Math.min(1, confidence + NAME_BONUS);
    return { format: format as FormatDefinition, confidence, order };
  }).sort((a, b) => b.confidence - a.confidence || a.order - b.order);
  const [best, second] = scored;
  return {
    format: best?.format ?? TEXT,
    confidence: best?.confidence ?? 0,
    runner_up: second && second.confidence > 0 ? { format: second.format, confidence: second.confidence } : null,
  };
}

/** The syntax of each view whose errors a format that reads it reports. */
const VIEW_SYNTAX = { json: 'json', toml: 'toml', yaml: 'yaml', 'front matter': 'markdown' } as const;

/**
 * Recognise the manifest and read it into `p` with its format's parser. A syntax error is reported when the winning
 * format reads that syntax or is generic (malformed JSON read as text), not when another syntax explained the text (a
 * TOML file starting with `[` is not malformed JSON).
 */
export function readManifest(p: ParsedManifest, raw: string, input: EnrichmentInput): void {
  const doc = new ManifestDocument(raw, fileNameOf(input));
  const r = recognise(doc, input);
  p.kind = r.format.id as ParsedManifest['kind'];
  p.format = 'text';
  p.recognition = {
    confidence: Math.round(r.confidence * 100) / 100,
    runner_up: r.runner_up
      ? { format: r.runner_up.format.id, confidence: Math.round(r.runner_up.confidence * 100) / 100 }
      : null,
  };
  try {
    r.format.parse(p, doc, input);
  } catch (e) {
    p.parse_errors.push(`parser: ${(e as Error).message}`);
  }
  const generic = r.format.family === 'generic';
  for (const [view, message] of doc.errors)
    if (generic || r.format.syntax.includes(VIEW_SYNTAX[view])) p.parse_errors.push(`${view}: ${message}`);
  // lines a JSON or TOML view read past to parse: reported like a requirements file's (manifest_lines_skipped)
  for (const [view, lines] of doc.skipped)
    if (!p.skipped_lines && lines.length && (generic || r.format.syntax.includes(VIEW_SYNTAX[view])))
      p.skipped_lines = { lines: [...lines], total: lines.length };
}
