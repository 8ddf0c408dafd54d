// The policy page's one read (docs/admin-api.md): the policy with its rules and assignments.
import { adminApi, unwrap } from '../../api/client';
import type { Firewall, Policy } from '../../api/types';

export function loadPolicy(id: string): Promise<Policy> {
  return unwrap(adminApi.GET('/policies/v1/url-filter/{id}', { params: { path: { id } } }));
}

/** The tenant's firewalls, first 100 (the assign picker and the names of assigned firewalls). */
export async function loadFirewalls(): Promise<Firewall[]> {
  return (await unwrap(adminApi.GET('/firewalls/v1', { params: { query: { limit: 100 } } }))).data;
}
