// The one tenant look-up every tenant use case starts from: 404 resource_missing (param `id`) when absent.
import type { PrismaClient } from '@risk/db';
import { notFound } from '../errors';

export async function findTenant(prisma: PrismaClient, id: string) {
  const tenant = await prisma.tenant.findUnique({ where: { id } });
  if (!tenant) throw notFound('tenant', id, 'id');
  return tenant;
}
