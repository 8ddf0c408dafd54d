import { ApiError } from '@risk/common/errors';
import { ATLAS_VERSION } from '@risk/enrichment';
import { unknownAttackTechniques } from './list-attack-techniques';

/**
 * Threats cite techniques of the shipped ATLAS release only (docs/advisories.md "MITRE ATLAS"): the
 * contract checks the id's shape, this its existence. The ids already match ATLAS_TECHNIQUE_PATTERN, so quoting
 * them in the message quotes nothing hostile.
 */
export function assertKnownAttackTechniques(ids: readonly string[] | undefined): void {
  const unknown = unknownAttackTechniques(ids ?? []);
  if (unknown.length)
    throw new ApiError('parameter_invalid', {
      param: 'attack_techniques',
      message: `Unknown MITRE ATLAS technique(s): ${unknown.slice(0, 5).join(', ')} (ATLAS ${ATLAS_VERSION}; GET /v1/attack-techniques lists them).`,
    });
}
