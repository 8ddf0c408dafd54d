import { ApiError } from '@risk/common';
import type { DbDeps } from '../deps';
import { findPolicy } from './find-policy';

/** Only an unassigned policy: its objects must be removed from the firewalls first. */
export async function deletePolicy(deps: DbDeps, input: { tenantId: string; id: string }) {
  const { db } = deps;
  const { id } = input;
  const policy = await findPolicy(db, input.tenantId, id);
  if (policy.assignments.length) {
    throw new ApiError('policy_assigned', {
      param: 'id',
      message: `The policy is assigned to ${policy.assignments.length} firewall(s); unassign it first so its objects are removed from them.`,
    });
  }
  await db.urlFilterPolicy.delete({ where: { id } });
  return { id, object: 'url_filter_policy', deleted: true as const };
}
