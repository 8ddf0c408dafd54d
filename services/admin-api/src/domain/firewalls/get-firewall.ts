import type { PrismaDeps } from '../deps';
import { serializeFirewall } from '../serializers';
import { findFirewall } from './find-firewall';

export async function getFirewall(deps: PrismaDeps, input: { tenantId: string; id: string }) {
  return serializeFirewall(await findFirewall(deps.prisma, input.tenantId, input.id));
}
