import { ApiError } from '@risk/common/errors';
import { RULES } from '@risk/enrichment';

const KNOWN = new Set<string>(RULES.map((r) => r.id));

/** A rule id the engine emits (docs/enrichment.md "Rules"); anything else is 400 naming `param`. */
export function assertKnownRule(ruleId: string, param = 'rule_id'): void {
  if (!KNOWN.has(ruleId))
    throw new ApiError('parameter_invalid', {
      param,
      message: `Unknown rule id '${ruleId}' (see docs/enrichment.md).`,
    });
}
