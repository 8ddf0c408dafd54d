import type { DbDeps } from '../deps';
import { checkAssignmentsBeforeDelete } from '../policies/removal-state';
import { findFirewall } from './find-firewall';

export async function deleteFirewall(deps: DbDeps, input: { tenantId: string; id: string; force?: boolean }) {
  const { db } = deps;
  const { id } = input;
  await findFirewall(db, input.tenantId, id);
  // deleting would cascade the assignments away and leave their objects on the device: unassign first
  const leftOnDevice = await checkAssignmentsBeforeDelete(db, { firewall_id: id }, input.force === true);
  await db.firewall.delete({ where: { id } });
  return { id, object: 'firewall', deleted: true as const, ...leftOnDevice };
}
