import type { PrismaDeps } from '../deps';
import { findPolicy } from './find-policy';
import { checkAssignmentsBeforeDelete } from '@risk/firewalls';

/**
 * Only a policy whose objects were removed from its firewalls; one whose removals ended removal_failed
 * with `force` (docs/firewalls.md "Assignment sync states").
 */
export async function deletePolicy(deps: PrismaDeps, input: { tenantId: string; id: string; force?: boolean }) {
  const { prisma } = deps;
  const { id } = input;
  await findPolicy(prisma, input.tenantId, id);
  const leftOnDevice = await checkAssignmentsBeforeDelete(prisma, { policy_id: id }, input.force === true);
  await prisma.urlFilterPolicy.delete({ where: { id } });
  return { id, object: 'url_filter_policy', deleted: true as const, ...leftOnDevice };
}
