import type { PrismaDeps } from '../deps';
import { checkAssignmentsBeforeDelete } from '@risk/firewalls';
import { findFirewall } from './find-firewall';

export async function deleteFirewall(deps: PrismaDeps, input: { tenantId: string; id: string; force?: boolean }) {
  const { prisma } = deps;
  const { id } = input;
  await findFirewall(prisma, input.tenantId, id);
  // deleting would cascade the assignments away and leave their objects on the device: unassign first
  const leftOnDevice = await checkAssignmentsBeforeDelete(prisma, { firewall_id: id }, input.force === true);
  await prisma.firewall.delete({ where: { id } });
  return { id, object: 'firewall', deleted: true as const, ...leftOnDevice };
}
