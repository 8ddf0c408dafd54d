import type { AttackTechnique, AttackTechniqueList } from '@risk/contracts';
import { ATLAS_TACTIC_LIST, ATLAS_TECHNIQUES, ATLAS_VERSION, type AtlasTechnique } from '@risk/enrichment';

// MITRE ATLAS as the engine ships it (packages/enrichment/src/data/atlas.json; docs/advisories.md "MITRE ATLAS"):
// static reference data, rendered once.
const TACTICS = new Map(ATLAS_TACTIC_LIST.map((t) => [t.id, t]));

function render(t: AtlasTechnique): AttackTechnique {
  return {
    object: 'attack_technique',
    id: t.id,
    name: t.name,
    url: t.url,
    tactics: t.tactics.flatMap((id) => TACTICS.get(id) ?? []),
    subtechnique_of: t.subtechnique_of ?? null,
    atlas_version: ATLAS_VERSION,
  };
}
const ALL: readonly AttackTechnique[] = [...ATLAS_TECHNIQUES.values()].map(render);

/** GET /v1/attack-techniques: every technique (optionally of one tactic), complete in one response. */
export function listAttackTechniques(input: { tactic?: string }): AttackTechniqueList {
  return {
    object: 'list',
    data: input.tactic ? ALL.filter((t) => t.tactics.some((x) => x.id === input.tactic)) : [...ALL],
    has_more: false,
    url: '/v1/attack-techniques',
    next_cursor: null,
    tactics: [...ATLAS_TACTIC_LIST],
  };
}

/** GET /v1/attack-techniques/{id}; null for an id the shipped release does not hold. */
export function getAttackTechnique(input: { id: string }): AttackTechnique | null {
  return ALL.find((t) => t.id === input.id) ?? null;
}

/** The ids of `ids` the shipped release does not hold: threats cite only known techniques (docs/advisories.md "MITRE ATLAS"). */
export function unknownAttackTechniques(ids: readonly string[]): string[] {
  return ids.filter((id) => !ATLAS_TECHNIQUES.has(id));
}
