// The api_token is encrypted (AES-256-GCM under SECRETS_KEY) before it reaches the database and decrypted
// only to build a connector; responses carry api_token_last4 only.
import { ID_PREFIXES, encryptSecret, newId } from '@risk/common';
import type { AdminDeps } from '../deps';
import { serializeFirewall } from '../serializers';
import { assertHostAllowed, conflictOnName } from './firewall-checks';

export async function createFirewall(
  deps: Pick<AdminDeps, 'db' | 'firewalls'>,
  input: {
    tenantId: string;
    firewall: { name: string; type: string; host: string; port: number; api_token: string; verify_ssl: boolean };
  },
) {
  const { firewall } = input;
  assertHostAllowed(firewall.host, deps.firewalls.allowList);
  try {
    const row = await deps.db.firewall.create({
      data: {
        id: newId(ID_PREFIXES.firewall),
        tenant_id: input.tenantId,
        name: firewall.name,
        type: firewall.type,
        host: firewall.host.toLowerCase(),
        port: firewall.port,
        verify_ssl: firewall.verify_ssl,
        api_token_ciphertext: encryptSecret(firewall.api_token, deps.firewalls.secretsKey),
        api_token_last4: firewall.api_token.slice(-4),
      },
    });
    return serializeFirewall(row);
  } catch (err) {
    return conflictOnName(err, firewall.name);
  }
}
