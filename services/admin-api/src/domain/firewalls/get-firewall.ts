import type { DbDeps } from '../deps';
import { serializeFirewall } from '../serializers';
import { findFirewall } from './find-firewall';

export async function getFirewall(deps: DbDeps, input: { tenantId: string; id: string }) {
  return serializeFirewall(await findFirewall(deps.db, input.tenantId, input.id));
}
