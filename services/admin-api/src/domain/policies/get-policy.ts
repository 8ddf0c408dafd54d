import type { DbDeps } from '../deps';
import { serializePolicy } from '../serializers';
import { findPolicy } from './find-policy';

export async function getPolicy(deps: DbDeps, input: { tenantId: string; id: string }) {
  return serializePolicy(await findPolicy(deps.db, input.tenantId, input.id));
}
