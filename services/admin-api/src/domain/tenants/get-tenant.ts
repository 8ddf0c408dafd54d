import type { DbDeps } from '../deps';
import { serializeTenant } from '../serializers';
import { findTenant } from './find-tenant';

export async function getTenant(deps: DbDeps, input: { id: string }) {
  return serializeTenant(await findTenant(deps.db, input.id));
}
