// Tenant use cases: register (with a first tenant token), list, suspend and reactivate.
import {
  ApiError,
  ID_PREFIXES,
  newId,
  paginate,
  keysetWhere,
  keysetOrder,
  listEnvelope,
  type ListQuery,
} from '@risk/common';
import { Prisma, type PrismaClient } from '@risk/db';
import type { TenantTokenSigner } from '../../auth';
import { serializeTenant } from '../serializers';
import { getTenant } from './get-tenant';
import { issueTenantToken } from './tenant-tokens';

export async function registerTenant(
  db: PrismaClient,
  signer: TenantTokenSigner,
  input: { name: string; admin_email: string; ttlDays: number },
) {
  try {
    return await db.$transaction(async (tx) => {
      const tenant = await tx.tenant.create({
        data: {
          id: newId(ID_PREFIXES.tenant),
          name: input.name,
          admin_email: input.admin_email.toLowerCase(),
          org_id: newId(ID_PREFIXES.org),
        },
      });
      const tenantToken = await issueTenantToken(tx, signer, { tenantId: tenant.id, ttlDays: input.ttlDays });
      return { ...serializeTenant(tenant), tenant_token: tenantToken };
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      throw new ApiError('resource_already_exists', {
        param: 'name',
        message: `A tenant named '${input.name}' already exists.`,
      });
    }
    throw err;
  }
}

export async function listTenants(db: PrismaClient, page: ListQuery) {
  const result = await paginate(page, {
    loadCursor: (id) => db.tenant.findUnique({ where: { id }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      db.tenant.findMany({ where: keysetWhere('id', { before, after }), orderBy: keysetOrder('id', order), take }),
  });
  return listEnvelope(
    '/tenants/v1',
    { data: result.data.map(serializeTenant), has_more: result.has_more },
    (t) => t.id,
  );
}

/**
 * Suspension stops every credential of the tenant at once without touching them: tenant tokens and
 * deployment tokens are checked against the tenant's status on every use, and the public API's key
 * look-up joins the tenant by org_id. Reactivation therefore restores exactly the credentials that were
 * valid before (revoked or expired ones stay so). Both are idempotent.
 */
export async function setTenantStatus(db: PrismaClient, id: string, status: 'active' | 'suspended') {
  const tenant = await getTenant(db, id);
  if (tenant.status === status) return serializeTenant(tenant);
  const updated = await db.tenant.update({
    where: { id },
    data: { status, suspended_at: status === 'suspended' ? new Date() : null },
  });
  return serializeTenant(updated);
}
