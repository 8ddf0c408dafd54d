import type { DbDeps } from '../deps';
import { findPolicy } from './find-policy';
import { checkAssignmentsBeforeDelete } from './removal-state';

/**
 * Only a policy whose objects were removed from its firewalls; one whose removals ended removal_failed
 * with `force` (docs/firewalls.md "Assignment sync states").
 */
export async function deletePolicy(deps: DbDeps, input: { tenantId: string; id: string; force?: boolean }) {
  const { db } = deps;
  const { id } = input;
  await findPolicy(db, input.tenantId, id);
  const leftOnDevice = await checkAssignmentsBeforeDelete(db, { policy_id: id }, input.force === true);
  await db.urlFilterPolicy.delete({ where: { id } });
  return { id, object: 'url_filter_policy', deleted: true as const, ...leftOnDevice };
}
