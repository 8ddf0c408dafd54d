import type { PrismaDeps } from '../deps';
import { serializePolicy } from '../serializers';
import { findPolicy } from './find-policy';

export async function getPolicy(deps: PrismaDeps, input: { tenantId: string; id: string }) {
  return serializePolicy(await findPolicy(deps.prisma, input.tenantId, input.id));
}
