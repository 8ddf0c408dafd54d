// Tenant use cases: register (with a first tenant token), list, retrieve, mint a token.
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
import { notFound } from '../errors';
import { serializeTenant } from '../serializers';

export async function registerTenant(
  db: PrismaClient,
  signer: TenantTokenSigner,
  input: { name: string; admin_email: string; ttlDays: number },
) {
  try {
    const tenant = await db.tenant.create({
      data: {
        id: newId(ID_PREFIXES.tenant),
        name: input.name,
        admin_email: input.admin_email.toLowerCase(),
        org_id: newId(ID_PREFIXES.org),
      },
    });
    const { token, expires_at } = await signer.sign(tenant.id, input.ttlDays);
    return {
      ...serializeTenant(tenant),
      tenant_token: {
        object: 'tenant_token' as const,
        tenant_id: tenant.id,
        token,
        expires_at: expires_at.toISOString(),
      },
    };
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

export async function getTenant(db: PrismaClient, id: string) {
  const tenant = await db.tenant.findUnique({ where: { id } });
  if (!tenant) throw notFound('tenant', id, 'id');
  return tenant;
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

export async function mintTenantToken(
  db: PrismaClient,
  signer: TenantTokenSigner,
  input: { tenantId: string; ttlDays: number },
) {
  const tenant = await getTenant(db, input.tenantId);
  const { token, expires_at } = await signer.sign(tenant.id, input.ttlDays);
  return { object: 'tenant_token' as const, tenant_id: tenant.id, token, expires_at: expires_at.toISOString() };
}
