import type { PrismaDeps } from '../deps';
import { serializeTenant } from '../serializers';
import { findTenant } from './find-tenant';

export async function getTenant(deps: PrismaDeps, input: { id: string }) {
  return serializeTenant(await findTenant(deps.prisma, input.id));
}
