import { ApiError } from '@risk/common/errors';
import type { AppDeps } from '../../deps';
import type { OrgScope } from '../triage/org-view';

/** Deletes one of the org's rules; another org's or mode's rule is 404 like a missing one. */
export async function deleteSuppression(
  deps: Pick<AppDeps, 'prisma'>,
  input: { scope: OrgScope; id: string },
): Promise<{ id: string; object: 'suppression'; deleted: true }> {
  const { count } = await deps.prisma.suppressionRule.deleteMany({
    where: { id: input.id, org_id: input.scope.orgId, livemode: input.scope.livemode },
  });
  if (count === 0)
    throw new ApiError('resource_missing', { param: 'id', message: `No such suppression rule: '${input.id}'.` });
  return { id: input.id, object: 'suppression', deleted: true };
}
