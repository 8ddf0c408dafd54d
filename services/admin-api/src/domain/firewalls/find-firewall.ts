import type { Firewall, PrismaClient } from '@risk/db';
import { notFound } from '../errors';

export async function findFirewall(prisma: PrismaClient, tenantId: string, id: string): Promise<Firewall> {
  // another tenant's firewall is indistinguishable from a missing one
  const row = await prisma.firewall.findFirst({ where: { id, tenant_id: tenantId } });
  if (!row) throw notFound('firewall', id, 'id');
  return row;
}
