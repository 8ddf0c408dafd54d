// MITRE ATLAS as shipped (src/data/atlas.json, the full release converted by scripts/build-atlas.ts): the technique
// ids findings cite are looked up here (docs/enrichment.md "Knowledge shipped in the repository").
import atlas from './data/atlas.json';

export interface AtlasTechnique {
  readonly id: string;
  readonly name: string;
  readonly tactics: readonly string[];
  readonly subtechnique_of?: string;
  readonly url: string;
}

export const ATLAS_VERSION: string = atlas.version;
export const ATLAS_TECHNIQUES: ReadonlyMap<string, AtlasTechnique> = new Map(
  (atlas.techniques as AtlasTechnique[]).map((t) => [t.id, t]),
);
export const ATLAS_TACTICS: ReadonlyMap<string, string> = new Map(atlas.tactics.map((t) => [t.id, t.name]));

/** The technique with this id in the shipped ATLAS release, or undefined. */
export function atlasTechnique(id: string): AtlasTechnique | undefined {
  return ATLAS_TECHNIQUES.get(id);
}

export interface AtlasTactic {
  readonly id: string;
  readonly name: string;
  readonly url: string;
}
/** Every tactic of the release, in ATLAS's order (the API lists them: docs/advisories.md "MITRE ATLAS"). */
export const ATLAS_TACTIC_LIST: readonly AtlasTactic[] = atlas.tactics.map((t) => ({ id: t.id, name: t.name, url: t.url }));
