// What an edit of a firewall sends (docs/admin-api.md "Firewalls"): only the changed fields, and whether the API
// token must come along (a changed type, host, port or TLS check).
import type { Firewall, UpdateFirewallBody } from '../../api/types';

export type Draft = {
  name: string;
  type: Firewall['type'];
  host: string;
  port: string;
  verify_ssl: boolean;
  api_token: string;
};

/** The fields of `draft` that differ from `fw`, as the update body; and whether the token must come along. */
export function firewallChanges(fw: Firewall, draft: Draft): { body: UpdateFirewallBody; needsToken: boolean } {
  const body: UpdateFirewallBody = {};
  if (draft.name.trim() !== fw.name) body.name = draft.name.trim();
  if (draft.type !== fw.type) body.type = draft.type;
  if (draft.host.trim() !== fw.host) body.host = draft.host.trim();
  if (Number(draft.port) !== fw.port) body.port = Number(draft.port);
  if (draft.verify_ssl !== fw.verify_ssl) body.verify_ssl = draft.verify_ssl;
  const needsToken = ['type', 'host', 'port', 'verify_ssl'].some((k) => k in body);
  if (draft.api_token) body.api_token = draft.api_token;
  return { body, needsToken };
}
