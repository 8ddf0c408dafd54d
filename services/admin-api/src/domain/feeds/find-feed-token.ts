// A tenant's feed token by id; another tenant's token is 404 like a missing one.
import { ApiError } from '@risk/common/errors';
import type { PrismaDeps } from '../deps';

export async function findFeedToken(deps: PrismaDeps, input: { tenantId: string; id: string }) {
  const token = await deps.prisma.feedToken.findFirst({ where: { id: input.id, tenant_id: input.tenantId } });
  if (!token) throw new ApiError('resource_missing', { param: 'id', message: `No feed token ${input.id}.` });
  return token;
}
