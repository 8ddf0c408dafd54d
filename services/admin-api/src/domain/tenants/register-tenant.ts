import { ApiError } from '@risk/common/errors';
import { ID_PREFIXES, newId } from '@risk/db';
import { Prisma } from '@risk/db';
import type { AdminDeps } from '../deps';
import { serializeTenant } from '../serializers';
import { issueTenantToken } from '../tenant-tokens/issue-tenant-token';

/** A tenant with its org id and a first tenant token (shown once), in one transaction. */
export async function registerTenant(
  deps: Pick<AdminDeps, 'prisma' | 'signer' | 'tenantTokenTtlDays'>,
  input: { name: string; admin_email: string },
) {
  try {
    return await deps.prisma.$transaction(async (tx) => {
      const tenant = await tx.tenant.create({
        data: {
          id: newId(ID_PREFIXES.tenant),
          name: input.name,
          admin_email: input.admin_email.toLowerCase(),
          org_id: newId(ID_PREFIXES.org),
        },
      });
      const tenantToken = await issueTenantToken(
        { prisma: tx, signer: deps.signer },
        { tenantId: tenant.id, ttlDays: deps.tenantTokenTtlDays },
      );
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
