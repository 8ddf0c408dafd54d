import { ApiError } from '@risk/common';
import type { DbDeps } from '../deps';
import { findFirewall } from './find-firewall';

export async function deleteFirewall(deps: DbDeps, input: { tenantId: string; id: string }) {
  const { db } = deps;
  const { id } = input;
  await findFirewall(db, input.tenantId, id);
  // deleting would cascade the assignments away and leave their objects on the device: unassign first
  const assigned = await db.policyAssignment.count({ where: { firewall_id: id } });
  if (assigned) {
    throw new ApiError('policy_assigned', {
      param: 'id',
      message: `${assigned} URL-filter polic${assigned === 1 ? 'y is' : 'ies are'} assigned to this firewall; unassign ${assigned === 1 ? 'it' : 'them'} first so their objects are removed from the device.`,
    });
  }
  await db.firewall.delete({ where: { id } });
  return { id, object: 'firewall', deleted: true as const };
}
