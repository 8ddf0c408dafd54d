// Well-known AI libraries and SDKs (src/data/ai-packages.json, built by scripts/build-ai-packages.ts): what the engine
// means by "an AI library" when it weighs a dependency (R23's direct AI dependency) and the names the typosquat check
// (R15) compares against. Matched only by the exact registry name in its normal form, never by likeness, so a
// look-alike stays R15's to judge. docs/enrichment.md "Data files".
import data from '../../data/ai-packages.json';

/** What a library does that matters to risk, as its advisories or README state it (`capabilities_from`). */
export type AiPackageCapability =
  | 'loads_pickles'
  | 'trust_remote_code'
  | 'executes_generated_code'
  | 'serves_ui_publicly'
  /** calls a model provider's hosted API */
  | 'network_egress';

export interface AiPackage {
  readonly ecosystem: 'pypi' | 'npm' | 'go';
  /** the registry name in its normal form (PEP 503 for PyPI, lower case for npm) */
  readonly name: string;
  readonly publisher: string;
  readonly role: string;
  readonly repository: string | null;
  readonly capabilities: readonly AiPackageCapability[];
}

/** A registry name in its ecosystem's normal form: PEP 503 for PyPI (`Sentence_Transformers` is `sentence-transformers`). */
export function normalisePackageName(ecosystem: string, name: string): string {
  const n = name.trim();
  if (ecosystem === 'pypi') return n.toLowerCase().replace(/[-_.]+/g, '-');
  return ecosystem === 'npm' ? n.toLowerCase() : n;
}

/** `ecosystem:name` → entry, built on first use (the engine's hot path asks per dependency). */
let index: ReadonlyMap<string, AiPackage> | null = null;
function byKey(): ReadonlyMap<string, AiPackage> {
  index ??= new Map((data.packages as unknown as AiPackage[]).map((p) => [`${p.ecosystem}:${p.name}`, p] as const));
  return index;
}

/** The listed AI library a dependency names exactly (in its ecosystem's normal form), or null. */
export function aiPackage(ecosystem: string, name: string): AiPackage | null {
  if (!name || name.length > 214) return null;
  return byKey().get(`${ecosystem}:${normalisePackageName(ecosystem, name)}`) ?? null;
}

/** Every listed AI library's registry name (the well-known names a typosquat imitates). */
export function aiPackageNames(): string[] {
  return [...byKey().values()].filter((p) => p.ecosystem !== 'go').map((p) => p.name);
}
