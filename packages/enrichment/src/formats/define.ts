// One manifest format = one definition: how it is recognised, how it is read, what it can carry and where the corpus
// and the docs find it, so a format cannot be recognised without being documented, nor documented without being
// recognised (docs/enrichment.md "Manifests recognised"; the registry is src/formats/registry.ts).
import type { EnrichmentInput, ParsedManifest } from '../types';
import type { ManifestDocument } from './document';

/**
 * What a manifest of a format can carry. `licence` decides whether a missing licence is a finding (R08), `lineage`
 * (a declared base model) whether a missing base model is (R12); the others say which rules can find something in it
 * and are printed in the docs.
 */
export const CARRIES = [
  'licence',
  'dependencies',
  'tools',
  'launch_commands',
  'environment',
  'endpoints',
  'artifacts',
  'lineage',
] as const;
export type Carry = (typeof CARRIES)[number];

/** The syntax a format is written in: the document view its recogniser and parser read. */
export type Syntax = 'json' | 'jsonc' | 'yaml' | 'toml' | 'ini' | 'markdown' | 'lines';

/** Which part of the AI supply chain the format describes (the docs group formats by it). */
export type Family = 'model' | 'mcp' | 'package' | 'container' | 'extension' | 'notebook' | 'generic';

/** What a recogniser is told besides the document: the signal, and whether its file name is one of the format's. */
export interface RecogniseContext {
  readonly input: EnrichmentInput;
  /** the signal names a file (metadata or source URL) whose base name matches the format's `names` */
  readonly named: boolean;
}

export interface FormatSpec<Id extends string> {
  /** the manifest kind the parser produces (`ParsedManifest.kind`) */
  id: Id;
  title: string;
  family: Family;
  syntax: readonly Syntax[];
  /** one sentence for the docs: what is read from it */
  summary: string;
  /**
   * File base names the format usually has. Content decides first: a name only raises a content confidence above 0
   * (never recognises by itself) and lets the recogniser accept a noisier document (docs/enrichment.md "Manifests
   * recognised"). Anchored, without nested repeats: linear (`pnpm check:redos`).
   */
  names: RegExp | null;
  /**
   * How much the document looks like this format, 0 (not at all) to 1, from its content alone. Every recogniser runs
   * on every manifest; the highest confidence wins, ties going to the earlier registry entry. Never throws; linear.
   */
  recognise(doc: ManifestDocument, ctx: RecogniseContext): number;
  /** Fills `p` from the document (the registry sets `p.kind` and `p.format`). Never throws on recognised input. */
  parse(p: ParsedManifest, doc: ManifestDocument, input: EnrichmentInput): void;
  carries: readonly Carry[];
  /** the package ecosystem the manifest belongs to, when the format says so (src/identify.ts) */
  ecosystem?: 'npm' | 'pypi' | 'mcp' | 'ollama';
  /**
   * The labelled corpus (packages/enrichment/corpus/index.yaml): the `format` name its entries use, the subformats
   * that must each be present, and the entry the docs show as the format's real example. Absent: the format is not
   * required in the corpus, and `example` below stands in.
   */
  corpus?: { name: string; subformats?: readonly string[]; example: string };
  /** a short real-world example for the docs, when the corpus holds none */
  example?: string;
  /** what is recognised but not read, or how the format is told from its look-alikes (docs) */
  notes?: string;
}

export type FormatDefinition<Id extends string = string> = Readonly<FormatSpec<Id>>;

export function defineFormat<const Id extends string>(spec: FormatSpec<Id>): FormatDefinition<Id> {
  if (!spec.corpus && !spec.example && spec.family !== 'generic')
    throw new Error(`format ${spec.id}: needs a corpus example or an inline example`);
  if (spec.names?.flags.includes('g')) throw new Error(`format ${spec.id}: names must not be a global pattern`);
  return Object.freeze(spec);
}
