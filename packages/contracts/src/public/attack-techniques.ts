// GET /v1/attack-techniques and /v1/attack-techniques/{id} (docs/advisories.md "MITRE ATLAS"): the MITRE ATLAS release
// the engine ships, every technique and sub-technique with its tactics. The list is complete in one response (170
// techniques, ~25 KiB): it is reference data a client caches, so it has no cursor (has_more is always false).
import { z } from '../zod';
import { ATLAS_TECHNIQUE_PATTERN } from './threats';

export const ZAttackTechniqueParams = z.object({
  technique_id: z
    .string()
    .regex(ATLAS_TECHNIQUE_PATTERN, 'must be a MITRE ATLAS technique id like AML.T0010 or AML.T0010.001')
    .openapi({ example: 'AML.T0010.001' }),
});

export const ZListAttackTechniquesQuery = z.object({
  tactic: z
    .string()
    .regex(/^AML\.TA\d{4}$/, 'must be a MITRE ATLAS tactic id like AML.TA0004')
    .optional()
    .openapi({ description: 'only the techniques of this tactic' }),
});

export const ZAttackTactic = z.object({ id: z.string(), name: z.string(), url: z.string() }).openapi('AttackTactic');

export const ZAttackTechnique = z
  .object({
    object: z.literal('attack_technique'),
    id: z.string().openapi({ example: 'AML.T0010.001' }),
    name: z.string(),
    url: z.string().openapi({ example: 'https://atlas.mitre.org/techniques/AML.T0010.001' }),
    tactics: z.array(ZAttackTactic),
    subtechnique_of: z.string().nullable(),
    atlas_version: z.string().openapi({ example: '5.6.0' }),
  })
  .openapi('AttackTechnique');
export type AttackTechnique = z.infer<typeof ZAttackTechnique>;

export const ZAttackTechniqueList = z
  .object({
    object: z.literal('list'),
    data: z.array(ZAttackTechnique),
    has_more: z.literal(false).openapi({ description: 'always false: the list is complete' }),
    url: z.string(),
    next_cursor: z.null(),
    tactics: z.array(ZAttackTactic).openapi({ description: 'every tactic of the release' }),
  })
  .openapi('AttackTechniqueList');
export type AttackTechniqueList = z.infer<typeof ZAttackTechniqueList>;
