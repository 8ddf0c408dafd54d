import { ApiError } from '@risk/common/errors';
import type { AppDeps } from '../../deps';
import type { OrgScope } from '../triage/org-view';

export async function deleteSeverityOverride(
  deps: Pick<AppDeps, 'prisma'>,
  input: { scope: OrgScope; ruleId: string },
): Promise<{ rule_id: string; object: 'severity_override'; deleted: true }> {
  const { count } = await deps.prisma.severityOverride.deleteMany({
    where: { org_id: input.scope.orgId, livemode: input.scope.livemode, rule_id: input.ruleId },
  });
  if (count === 0)
    throw new ApiError('resource_missing', {
      param: 'rule_id',
      message: `No severity override for '${input.ruleId}'.`,
    });
  return { rule_id: input.ruleId, object: 'severity_override', deleted: true };
}
